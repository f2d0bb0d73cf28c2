;;; The witness loop: one long-lived Guile process runs Lispex programs case after case.
;;;
;;; It speaks a small framed protocol with its relay (implementations/guile/worker.py), which
;;; speaks court-worker/v1 to the court. A request is one header line
;;;     RUN <source-bytes> <input-bytes or -1> <output-byte-limit>
;;; followed by exactly that many bytes of source and of input text. The answer is one JSON line:
;;;     {"status": ..., "values": [...], "stdout": "...", "warnings": [...], "error": {...}|null}
;;; Each case runs in a fresh module (see prelude.scm); nothing of one case reaches the next.

(define-module (lispex-witness serve)
  #:use-module (lispex-witness prelude)
  #:use-module (ice-9 exceptions)
  #:use-module (ice-9 rdelim)
  #:use-module (rnrs bytevectors)
  #:use-module (rnrs io ports)
  #:use-module (system vm vm)
  #:use-module (ice-9 control)
  #:export (main))

(define binding-symbols
  (map (lambda (entry) (cons (string->symbol (car entry)) (cdr entry))) lispex-bindings))

(define (fresh-module)
  (let ((m (make-module)))
    (for-each (lambda (iface) (module-use! m iface)) lispex-syntax)
    (for-each (lambda (entry) (module-define! m (car entry) (cdr entry))) binding-symbols)
    m))

;;; JSON out -------------------------------------------------------------------------------------

(define (json-string s port)
  (display "\"" port)
  (string-for-each
   (lambda (c)
     (let ((code (char->integer c)))
       (cond ((char=? c #\") (display "\\\"" port))
             ((char=? c #\\) (display "\\\\" port))
             ((< code #x20)
              (display "\\u00" port)
              (when (< code 16) (display "0" port))
              (display (number->string code 16) port))
             (else (display c port)))))
   s)
  (display "\"" port))

(define (json-list items port)
  (display "[" port)
  (let loop ((xs items) (first #t))
    (unless (null? xs)
      (unless first (display "," port))
      (json-string (car xs) port)
      (loop (cdr xs) #f)))
  (display "]" port))

(define (reply status values stdout warnings error-class message)
  (let ((port (current-output-port)))
    (display "{\"status\":" port) (json-string status port)
    (display ",\"values\":" port) (json-list values port)
    (display ",\"stdout\":" port) (json-string stdout port)
    (display ",\"warnings\":" port) (json-list warnings port)
    (display ",\"error\":" port)
    (if error-class
        (begin (display "{\"class\":" port) (json-string error-class port)
               (display ",\"message\":" port) (json-string message port) (display "}" port))
        (display "null" port))
    (display "}\n" port)
    (force-output port)))

;;; Reading --------------------------------------------------------------------------------------

(define (read-all text)
  (let ((port (open-input-string text)))
    (let loop ((forms '()))
      (let ((x (read port)))
        (if (eof-object? x) (reverse forms) (loop (cons x forms)))))))

(define (describe e)
  "A class and a message for an exception: evidence only, never compared."
  (cond
   ((not (exception? e)) (values "raise" (lispex-write-string e)))
   (else
    (let ((kind (false-if-exception (exception-kind e)))
          (msg (if (exception-with-message? e) (exception-message e) ""))
          (irritants (if (exception-with-irritants? e) (exception-irritants e) '())))
      (values (if (symbol? kind) (symbol->string kind)
                  (if (error-object? e) "error" "exception"))
              (or (false-if-exception
                   (if (and (string? msg) (string-contains msg "~"))
                       (apply format #f msg irritants)
                       (string-append (if (string? msg) msg (lispex-write-string msg)) " "
                                      (lispex-write-string irritants))))
                  ""))))))

(define (error-object? e) (and (exception? e) (exception-with-message? e)))

(define (kind-of e)
  (and (exception? e) (false-if-exception (exception-kind e))))

(define stack-limit (* 4 1024 1024)) ; words of Guile stack a case may use

(define (run-case source-bv input-bv limit)
  (let ((out (open-output-string))
        (warnings (list '()))
        (stage 'read)
        (outcome #f))                   ; set once: the first thing that ended the run
    (define (settle! status values error-class message)
      (unless outcome
        (set! outcome (list status values
                            (if (string=? status "resource") "" (get-output-string out))
                            (reverse (car warnings)) error-class message))))
    (define (on-raise e)
      ;; Called where the uncaught exception was raised, before anything unwinds: Lispex stops
      ;; the program there, so output that `dynamic-wind` after-thunks would write on the way
      ;; out is not part of the result.
      (call-with-values (lambda () (describe e))
        (lambda (class message)
          (cond
           ((eq? (kind-of e) output-limit-exceeded)
            (settle! "resource" '() "output-limit" message))
           ((eq? (kind-of e) 'lispex-stack-limit)
            (settle! "resource" '() "stack-limit" message))
           ((memq stage '(read expand))
            (settle! "source-error" '() (string-append (symbol->string stage) ":" class)
                     message))
           ((eq? stage 'input) (settle! "input-error" '() class message))
           (else (settle! "runtime-error" '() class message))))))
    (catch #t
      (lambda ()
        (parameterize ((current-output-buffer out)
                       (current-output-bytes (list 0))
                       (current-output-limit limit)
                       (current-warnings warnings))
          (call-with-escape-continuation
           (lambda (abandon)
             (with-exception-handler
              (lambda (e) (on-raise e) (abandon #f))
              (lambda () (evaluate source-bv input-bv (lambda (s) (set! stage s)) settle!)))))))
      (lambda (key . args)
        ;; Something failed while the run was being abandoned (an after-thunk's own error) or
        ;; inside the loop itself: the first outcome stands; without one, it is the loop's fault.
        (settle! "runtime-error" '() (symbol->string key) "")))
    (apply reply outcome)))

(define (evaluate source-bv input-bv set-stage! settle!)
  (let* ((text (utf8->string source-bv))
         (forms (read-all text))
         (m (fresh-module)))
    (when input-bv
      (set-stage! 'input)
      (let ((data (read-all (utf8->string input-bv))))
        (unless (= (length data) 1)
          (error "the input must be exactly one datum"))
        (module-define! m 'input (car data))))
    ;; The whole program is expanded before any of it runs, as Lispex normalizes the whole
    ;; source first: a malformed form anywhere is a source error, with no output.
    (set-stage! 'expand)
    (let ((expanded (map (lambda (form)
                           (save-module-excursion
                            (lambda () (set-current-module m) (macroexpand form))))
                         forms)))
      (set-stage! 'run)
      (run-expanded expanded m settle!))))

(define (run-expanded forms m settle!)
  (save-module-excursion
   (lambda ()
     (set-current-module m)
    (let ((results
           (call-with-stack-overflow-handler
            stack-limit
            (lambda ()
              (let loop ((fs forms) (last '()))
                (if (null? fs)
                    last
                    (loop (cdr fs)
                          ;; Already expanded: primitive-eval runs it without expanding again.
                          (call-with-values (lambda () (primitive-eval (car fs))) list)))))
            (lambda () (throw 'lispex-stack-limit "Guile stack limit reached")))))
      ;; Guile's `define` and `set!` yield an unspecified value; Lispex's yield none.
      (let ((results (if (and (= (length results) 1) (unspecified? (car results)))
                         '()
                         results)))
        (settle! "ok" (map lispex-write-string results) #f ""))))))

;;; The loop -------------------------------------------------------------------------------------

(define (main)
  (read-enable 'r6rs-hex-escapes)
  (let ((in (current-input-port)))
    (set-port-encoding! in "ISO-8859-1")
    (set-port-encoding! (current-output-port) "UTF-8")
    (display "READY\n") (force-output)
    (let loop ()
      (let ((header (read-line in)))
        (unless (eof-object? header)
          (let ((parts (string-split header #\space)))
            (if (and (= (length parts) 4) (string=? (car parts) "RUN"))
                (let* ((n (string->number (list-ref parts 1)))
                       (k (string->number (list-ref parts 2)))
                       (limit (string->number (list-ref parts 3)))
                       (source (if (> n 0) (get-bytevector-n in n) (make-bytevector 0)))
                       (input (cond ((< k 0) #f)
                                    ((= k 0) (make-bytevector 0))
                                    (else (get-bytevector-n in k)))))
                  (run-case source input limit))
                (reply "protocol-error" '() "" '() "protocol" header)))
          (loop))))))
