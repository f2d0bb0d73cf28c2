;;; The Chez Scheme 9.5 witness: the Lispex prelude's host half and the serve loop.
;;;
;;; Loaded after ../../witness/scheme/lispex-core.scm (the portable half) by
;;;     scheme -q lispex-core.scm serve.ss
;;; and speaks the framed protocol of implementations/witness/relay.py on stdin and stdout.
;;; A program's environment holds only the Lispex syntax keywords and the Lispex names, and starts
;;; every case as fresh as the first (see `fresh-env`): a program sees no ports, files, clock,
;;; network, `eval` or library system, and nothing of one case reaches the next.

(library (lispex syntax)
  (export lispex-if lispex-when lispex-unless lispex-do lispex-set! lispex-cond lispex-case
          lx-define-syntax lx-syntax-rules lx-syntax-case lx-let-syntax lx-letrec-syntax
          lx-define-library lx-include lx-include-ci lx-include-library-declarations
          lx-define-values lx-let-values lx-let*-values)
  (import (chezscheme))
  (define-syntax lispex-if (syntax-rules () ((_ test then else) (if test then else))))
  (define-syntax lispex-when
    (syntax-rules () ((_ test body ...) (if test (begin body ...) (values)))))
  (define-syntax lispex-unless
    (syntax-rules () ((_ test body ...) (if test (values) (begin body ...)))))
  ;; A `do` with no result expressions yields no value in Lispex (R7RS: unspecified).
  (define-syntax lispex-do
    (syntax-rules ()
      ((_ bindings (test) body ...) (do bindings (test (values)) body ...))
      ((_ bindings (test result ...) body ...) (do bindings (test result ...) body ...))))
  ;; A `cond` or `case` with no clause taken yields no value in Lispex (R7RS: unspecified).
  (define-syntax lispex-cond
    (syntax-rules (else)
      ((_ clause ... (else e ...)) (cond clause ... (else e ...)))
      ((_ clause ...) (cond clause ... (else (values))))))
  (define-syntax lispex-case
    (syntax-rules (else)
      ((_ key clause ... (else e ...)) (case key clause ... (else e ...)))
      ((_ key clause ...) (case key clause ... (else (values))))))
  ;; `set!` yields no value in Lispex (R7RS: unspecified).
  (define-syntax lispex-set!
    (syntax-rules () ((_ var expr) (begin (set! var expr) (values)))))
  (define-syntax define-forbidden
    (syntax-rules ()
      ((_ name ...)
       (begin (define-syntax name
                (lambda (x) (syntax-violation #f "forbidden form in Lispex" x))) ...))))
  (define-forbidden lx-define-syntax lx-syntax-rules lx-syntax-case lx-let-syntax
    lx-letrec-syntax lx-define-library lx-include lx-include-ci lx-include-library-declarations
    lx-define-values lx-let-values lx-let*-values))

;;; The host half of the prelude (see lispex-core.scm for what it must define). ----------------

(define-condition-type &lispex &condition make-lispex-condition lispex-condition?)

(define (%fault who message . irritants)
  (apply assertion-violation (string->symbol who) message irritants))

(define (%error-object? x) (and (condition? x) (or (error? x) (violation? x))))

(define (host-message e)
  (let ((msg (if (message-condition? e) (condition-message e) ""))
        (irritants (if (irritants-condition? e) (condition-irritants e) '())))
    (or (guard (c (#t #f)) (apply format #f msg irritants))
        (if (string? msg) msg (lispex-write-string msg)))))

;; A message the program wrote with `error` is its own; a Chez fault's message is Chez's prose,
;; marked "chez: " so that a comparison can tell it from a message the program wrote.
(define (%error-message e)
  (cond ((not (condition? e)) "")
        ((lispex-condition? e)
         (let ((m (if (message-condition? e) (condition-message e) "")))
           (if (string? m) m (lispex-write-string m))))
        (else (string-append "chez: " (host-message e)))))

(define (%error-irritants e)
  (if (and (condition? e) (irritants-condition? e)) (condition-irritants e) '()))

(define (%procedure-name p)
  (guard (c (#t #f))
    (let ((name (((inspect/object p) 'code) 'name)))
      (and (string? name) name))))

(define (%write-other x port)
  (cond ((eq? x (void)) (display "#<unspecified>" port))
        (else (display "#<chez " port) (write x port) (display ">" port))))

(define %read-u8 get-u8)
(define %read-bytevector get-bytevector-n)
(define %flush flush-output-port)

(define (lx-error message . irritants)
  (raise (condition (make-lispex-condition) (make-error) (make-message-condition message)
                    (make-irritants-condition irritants))))

(define lx-list-ref list-ref)
(define lx-list-tail list-tail)
(define lx-bytevector bytevector)
;; R7RS leaves the contents of (make-bytevector n) unspecified (Chez leaves them as they were);
;; Lispex fills with 0.
(define (lx-make-bytevector n . fill) (make-bytevector n (if (null? fill) 0 (car fill))))

(define bindings (lispex-bindings (lambda (name) (top-level-value name))))

(define base-env
  (let ((strict '((lispex-if if) (lispex-when when) (lispex-unless unless) (lispex-do do)
                  (lispex-set! set!) (lispex-cond cond) (lispex-case case)))
        (forbidden (map (lambda (name)
                          (list (string->symbol (string-append "lx-" (symbol->string name)))
                                name))
                        lispex-forbidden)))
    (environment `(only (chezscheme)
                        ,@(remp (lambda (k) (memq k '(set! do cond case))) lispex-keywords))
                 `(rename (only (lispex syntax) ,@(map car strict) ,@(map car forbidden))
                          ,@strict ,@forbidden))))

;; One environment serves every case. A fresh environment per case would be simpler, but Chez
;; keeps each environment's bindings on the symbols themselves, so every copy made stays
;; reachable and makes the next one slower. Instead, before a case every Lispex name gets its
;; prelude value again (an assignment or redefinition of a primitive does not survive), and after
;; it every other binding the program made is made unbound again: nothing a program defines or
;; assigns reaches the next case.
(define base-symbols (append '(if when unless) lispex-keywords lispex-forbidden))
(define case-env (copy-environment base-env #t base-symbols))
(define keep (make-eq-hashtable))
(for-each (lambda (s) (hashtable-set! keep s #t)) base-symbols)
(for-each (lambda (b) (hashtable-set! keep (car b) #t)) bindings)

(define (fresh-env)
  (for-each (lambda (b) (define-top-level-value (car b) (cdr b) case-env)) bindings)
  case-env)

(define (forget-program!)
  (for-each (lambda (s)
              (unless (hashtable-ref keep s #f)
                (define-top-level-value s (#%$unbound-object) case-env)))
            (environment-symbols case-env)))

;;; Running a case. ------------------------------------------------------------------------------

;; Chez's continuations live on the heap, so a runaway recursion grows memory, not a stack: a
;; case may hold this much after a collection before it is stopped as a resource outcome.
(define memory-cap (* 512 1024 1024))
(define running #f)
(define memory-limit-tag (list 'lispex-memory-limit))
(collect-request-handler
 (lambda ()
   (collect)
   (when (and running (> (bytes-allocated) memory-cap))
     (collect (collect-maximum-generation)))
   (when (and running (> (bytes-allocated) memory-cap))
     (set! running #f)
     (raise memory-limit-tag))))

(define (condition-class c)
  (cond ((not (condition? c)) "raise")
        ((lexical-violation? c) "lexical")
        ((syntax-violation? c) "syntax")
        ((undefined-violation? c) "undefined")
        ((assertion-violation? c) "assertion")
        ((non-continuable-violation? c) "non-continuable")
        ((implementation-restriction-violation? c) "implementation-restriction")
        ((violation? c) "violation")
        ((error? c) "error")
        (else "condition")))

(define (describe c)
  (if (condition? c) (host-message c) (lispex-write-string c)))

(define proto
  (transcoded-port (standard-output-port)
                   (make-transcoder (utf-8-codec) (eol-style lf) (error-handling-mode replace))))

(define (run-case source-bv input-bv limit)
  (let ((stage 'read) (outcome #f))
    (define (settle! status values class message)
      (unless outcome
        (set! outcome (list status values
                            (if (string=? status "resource") "" (get-output-string lx-out))
                            (reverse lx-warnings) class message))))
    (define (on-raise c)
      (cond ((eq? c lx-output-limit-tag) (settle! "resource" '() "output-limit" ""))
            ((eq? c memory-limit-tag) (settle! "resource" '() "memory-limit" ""))
            ((memq stage '(read expand))
             (settle! "source-error" '()
                      (string-append (symbol->string stage) ":" (condition-class c))
                      (describe c)))
            ((eq? stage 'input) (settle! "input-error" '() (condition-class c) (describe c)))
            (else (settle! "runtime-error" '() (condition-class c) (describe c)))))
    (lx-reset! limit)
    (guard (c (#t (settle! "runtime-error" '() "loop" (describe c))))
      (call/1cc
       (lambda (abandon)
         (with-exception-handler
          (lambda (c)
            ;; The compiler's notes (a call with a wrong argument count) are warnings raised
            ;; continuably: not the program's, so the compilation carries on.
            (if (and (condition? c) (warning? c))
                (void)
                (begin (set! running #f) (on-raise c) (abandon #f))))
          (lambda ()
            (evaluate source-bv input-bv (lambda (s) (set! stage s)) settle!))))))
    (set! running #f)
    (forget-program!)
    ;; A value Chez cannot print fails while the answer is written, outside the program: the
    ;; case is that runtime error, and the loop goes on.
    (let ((text (guard (c (#t (answer-text (list "runtime-error" '() "" '() "unprintable"
                                                 (describe c)))))
                  (answer-text outcome))))
      (put-string proto text)
      (flush-output-port proto))))

(define (answer-text fields)
  (let ((port (open-output-string)))
    (apply write-answer port fields)
    (get-output-string port)))

;; Chez 9.5 reads R6RS's `#vu8(` but not R7RS's `#u8(`, and spells #\null and #\escape its own
;; way: the source is respelled before it is read (outside strings, comments and character
;; literals).
(define (r6rs-bytevectors text)
  (let ((n (string-length text)) (out (open-output-string)))
    (define (at? i s)
      (and (<= (+ i (string-length s)) n) (string=? (substring text i (+ i (string-length s))) s)))
    (define (char-name-at i s)
      (let ((end (+ i (string-length s))))
        (and (at? i s)
             (or (= end n) (memv (string-ref text end)
                                 '(#\space #\tab #\newline #\return #\( #\) #\" #\; #\' #\`
                                   #\, #\|))))))
    (let loop ((i 0) (mode 'code) (depth 0))
      (if (>= i n)
          (get-output-string out)
          (let ((c (string-ref text i)))
            (case mode
              ((string)
               (write-char c out)
               (cond ((and (char=? c #\\) (< (+ i 1) n))
                      (write-char (string-ref text (+ i 1)) out) (loop (+ i 2) 'string 0))
                     ((char=? c #\") (loop (+ i 1) 'code 0))
                     (else (loop (+ i 1) 'string 0))))
              ((line)
               (write-char c out)
               (loop (+ i 1) (if (char=? c #\newline) 'code 'line) 0))
              ((block)
               (cond ((at? i "|#") (put-string out "|#")
                      (if (= depth 1) (loop (+ i 2) 'code 0) (loop (+ i 2) 'block (- depth 1))))
                     ((at? i "#|") (put-string out "#|") (loop (+ i 2) 'block (+ depth 1)))
                     (else (write-char c out) (loop (+ i 1) 'block depth))))
              (else
               (cond ((at? i "#u8(") (put-string out "#vu8(") (loop (+ i 4) 'code 0))
                     ;; R7RS's character names Chez 9.5 spells its own way.
                     ((char-name-at i "#\\null") (put-string out "#\\nul") (loop (+ i 6) 'code 0))
                     ((char-name-at i "#\\escape") (put-string out "#\\esc") (loop (+ i 8) 'code 0))
                     ((at? i "#\\") (put-string out (substring text i (min n (+ i 3))))
                      (loop (+ i 3) 'code 0))
                     ((at? i "#|") (put-string out "#|") (loop (+ i 2) 'block 1))
                     ((char=? c #\") (write-char c out) (loop (+ i 1) 'string 0))
                     ((char=? c #\;) (write-char c out) (loop (+ i 1) 'line 0))
                     (else (write-char c out) (loop (+ i 1) 'code 0))))))))))

;; R7RS vectors evaluate to themselves; R6RS's must be quoted. A vector literal where the program
;; evaluates it is quoted before Chez sees it (quoted and quasiquoted data are left alone).
(define (quote-vectors x)
  (cond ((vector? x) (list 'quote x))
        ((and (pair? x) (memq (car x) '(quote quasiquote))) x)
        ((pair? x)
         (let loop ((xs x))
           (cond ((pair? xs) (cons (quote-vectors (car xs)) (loop (cdr xs))))
                 (else xs))))
        (else x)))

(define (evaluate source-bv input-bv set-stage! settle!)
  (let ((forms (map quote-vectors
                    (read-all-string (r6rs-bytevectors (utf8->string source-bv)))))
        (e (fresh-env)))
    (when input-bv
      (set-stage! 'input)
      (let ((data (read-all-string (r6rs-bytevectors (utf8->string input-bv)))))
        (unless (= (length data) 1) (error 'input "the input must be exactly one datum"))
        (define-top-level-value 'input (car data) e)))
    ;; The whole program is expanded before any of it runs, as Lispex normalizes the whole
    ;; source first: a malformed form anywhere is a source error, with no output.
    (set-stage! 'expand)
    ;; (Chez's expanded code names its own internals, which this environment does not hold:
    ;; the expansion is the check, and `eval` expands each form again as it compiles it.)
    (for-each (lambda (form) (expand form e)) forms)
    (set-stage! 'run)
    (set! running #t)
    (let loop ((fs forms) (last '()))
        (if (null? fs)
            ;; Chez's `define` and `set!` yield the void object; Lispex's yield no value.
            (settle! "ok" (map lispex-write-string
                               (if (and (= (length last) 1) (eq? (car last) (void))) '() last))
                     #f "")
            (loop (cdr fs) (call-with-values (lambda () (eval (car fs) e)) list))))))

;;; The loop. ------------------------------------------------------------------------------------

(define (main)
  (let ((in (standard-input-port)))
    (current-output-port (current-error-port))
    (console-output-port (current-error-port))
    (display "READY" proto) (newline proto) (flush-output-port proto)
    (let loop ()
      (let ((header (read-header in)))
        (unless (eof-object? header)
          (let ((parts (split-spaces header)))
            (if (and (= (length parts) 4) (string=? (car parts) "RUN"))
                (let* ((n (string->number (list-ref parts 1)))
                       (k (string->number (list-ref parts 2)))
                       (limit (string->number (list-ref parts 3)))
                       (source (read-bytes in n))
                       (input (and (>= k 0) (read-bytes in k))))
                  (run-case source input limit))
                (write-answer proto "protocol-error" '() "" '() "protocol" header)))
          (loop))))
    (exit 0)))

(main)
