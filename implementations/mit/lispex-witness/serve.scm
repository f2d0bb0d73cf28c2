;;; The MIT/GNU Scheme 12.1 witness: the Lispex prelude's host half and the serve loop.
;;;
;;; Loaded after ../../witness/scheme/lispex-core.scm (the portable half) by
;;;     mit-scheme --quiet --no-init-file --load lispex-core.scm --load serve.scm
;;; and speaks the framed protocol of implementations/witness/relay.py over binary ports on the
;;; process's stdin and stdout. Every case runs in a fresh environment (a child of `base-env`,
;;; below), given fresh variables for every Lispex name, so nothing a program defines or assigns
;;; reaches the next case and a program sees no ports, files, clock, network, `eval` or
;;; environments.
;;;
;;; MIT stops a runaway recursion by abandoning the computation ("Aborting!: maximum recursion
;;; depth exceeded") and returning to its REPL, which then reads stdin: the relay recognises the
;;; line, answers the case as a stack-limit resource outcome and writes `(main)` to re-enter this
;;; loop.

;;; The host half of the prelude (see lispex-core.scm for what it must define). ----------------

(define (%fault who message . irritants)
  (error:bad-range-argument (if (pair? irritants) (car irritants) message) (string->symbol who)))

(define (%error-object? x) (if (error-object? x) #t #f))

;; A message the program wrote with `error` is its own; an MIT fault's message is MIT's prose,
;; marked "mit: " so that a comparison can tell it from a message the program wrote.
(define (%error-message e)
  (cond ((not (condition? e)) "")
        ((eq? (condition/type e) condition-type:simple-error)
         (let ((m (error-object-message e))) (if (string? m) m (lispex-write-string m))))
        (else (string-append "mit: " (condition/report-string e)))))

(define (%error-irritants e)
  (if (condition? e) (error-object-irritants e) '()))

(define unnamed
  (list scode-lambda-name:unnamed scode-lambda-name:let scode-lambda-name:internal-lambda
        scode-lambda-name:fluid-let))

;; A name MIT's syntaxer gave a renamed binding (a `letrec` or internal `define`: the uninterned
;; `.f.0`) is written as the name the program gave it.
(define (%procedure-name p)
  (and (compound-procedure? p)
       (let ((name (scode-lambda-name (procedure-lambda p))))
         (and (symbol? name) (not (memq name unnamed)) (program-name name)))))

(define (program-name name)
  (let* ((s (symbol->string name)) (n (string-length s)))
    (if (and (> n 2) (char=? (string-ref s 0) #\.) (not (eq? name (intern s))))
        (let loop ((i (- n 1)))
          (cond ((<= i 1) s)
                ((char=? (string-ref s i) #\.) (substring s 1 i))
                (else (loop (- i 1)))))
        s)))

(define unspecific-object (if #f #f))

(define (%write-other x port)
  (cond ((eq? x unspecific-object) (display "#<unspecified>" port))
        (else (display "#<mit " port) (write x port) (display ">" port))))

(define %read-u8 read-u8)
(define (%read-bytevector in n) (read-bytevector n in))
(define %flush flush-output)

(define lx-error error)
(define lx-list-ref list-ref)
(define lx-list-tail list-tail)
(define lx-bytevector bytevector)
(define lx-make-bytevector make-bytevector)
;; MIT has R7RS's own procedures where Chez needs the portable half's.
(define lx-exact-integer? exact-integer?)
(define lx-square square)
(define lx-floor-quotient floor-quotient)
(define lx-floor-remainder floor-remainder)
(define lx-floor/ floor/)
(define lx-truncate-quotient truncate-quotient)
(define lx-truncate-remainder truncate-remainder)
(define lx-truncate/ truncate/)
(define lx-string-copy string-copy)
(define lx-string->list string->list)
(define lx-string->vector string->vector)
(define lx-vector->list vector->list)
(define lx-vector-copy vector-copy)
(define lx-vector->string vector->string)

(define here (the-environment))   ; where the two prelude files were loaded
(define bindings (lispex-bindings (lambda (name) (environment-lookup here name))))

;;; Syntax: MIT's own forms, except where Lispex's shape is stricter and cheap to state. ---------

(define-syntax lispex-if
  (syntax-rules () ((_ test then else) (if test then else))))
(define-syntax lispex-when
  (syntax-rules () ((_ test body ...) (if test (begin body ...) (values)))))
(define-syntax lispex-unless
  (syntax-rules () ((_ test body ...) (if test (values) (begin body ...)))))
;; A `do` with no result expressions yields no value in Lispex (R7RS: unspecified; MIT: #t).
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
;; `set!` yields no value in Lispex (R7RS: unspecified; MIT: the old value).
(define-syntax lispex-set!
  (syntax-rules () ((_ var expr) (begin (set! var expr) (values)))))
(define-syntax lispex-forbidden-form
  (er-macro-transformer
   (lambda (form rename compare) (syntax-error "forbidden form in Lispex:" form))))

;; A program's names resolve in a child of `base-env`, which stands between it and MIT's own
;; environment: every name MIT binds, except the Lispex syntax keywords, is shadowed there by a
;; procedure that fails as an unbound variable would when called, so a program reaches none of
;; MIT's ports, files, clock, `eval` or environments (a bare reference to such a name is that
;; procedure, not an error: a difference only a program naming MIT's own procedures can see). MIT's macros still expand as MIT defines them (their
;; output refers to MIT's own bindings, closed where the macro was defined).
(define (shadow name)
  (lambda args (error "Unbound variable:" name)))

;; Two of MIT's special forms reach environments themselves: they fail like an unbound name.
(define-syntax lispex-no-environments
  (er-macro-transformer
   (lambda (form rename compare)
     (list (rename 'error) "Unbound variable:" (list (rename 'quote) (car form))))))

(define base-env
  (let ((env (extend-top-level-environment system-global-environment))
        (keep (append lispex-keywords '(if when unless))))
    (for-each (lambda (name)
                (if (not (or (memq name keep)
                             (environment-lookup-macro system-global-environment name)))
                    (environment-define env name (shadow name))))
              (environment-bound-names system-global-environment))
    (for-each (lambda (pair)
                (environment-define-macro env (car pair)
                                          (environment-lookup-macro here (cdr pair))))
              '((if . lispex-if) (when . lispex-when) (unless . lispex-unless)
                (do . lispex-do) (set! . lispex-set!) (cond . lispex-cond)
                (case . lispex-case)))
    (for-each (lambda (k)
                (environment-define-macro env k
                                          (environment-lookup-macro here 'lispex-forbidden-form)))
              lispex-forbidden)
    (for-each (lambda (k)
                (environment-define-macro env k
                                          (environment-lookup-macro here
                                                                    'lispex-no-environments)))
              '(the-environment access))
    env))

(define (fresh-env)
  (let ((e (extend-top-level-environment base-env)))
    (for-each (lambda (b) (environment-define e (car b) (cdr b))) bindings)
    e))

;;; Running a case. ------------------------------------------------------------------------------

(define (condition-class c)
  (if (condition? c)
      (let ((name (condition-type/name (condition/type c))))
        (if (symbol? name) (symbol->string name) (if (string? name) name "condition")))
      "raise"))

(define (describe c)
  (if (condition? c) (condition/report-string c) (lispex-write-string c)))

(define proto-in #f)
(define proto-out #f)

(define (answer-text fields)
  (let ((port (open-output-string)))
    (apply write-answer port fields)
    (string->utf8 (get-output-string port))))

;; A value MIT cannot print (`integer->char` past U+10FFFF gives an object no port takes) fails
;; while the answer is written, outside the program: the case is that runtime error, and the
;; loop goes on.
(define (answer . fields)
  (let ((bytes (call-with-current-continuation
                (lambda (k)
                  (with-exception-handler
                   (lambda (c)
                     (k (answer-text (list "runtime-error" '() "" '() "unprintable"
                                           (if (condition? c) (condition/report-string c) "")))))
                   (lambda () (answer-text fields)))))))
    (write-bytevector bytes proto-out)
    (flush-output proto-out)))

(define (define-form? form) (and (pair? form) (memq (car form) '(define set!))))

(define (run-case source-bv input-bv limit)
  (let ((stage 'read) (outcome #f))
    (define (settle! status values class message)
      (if (not outcome)
          (set! outcome (list status values
                              (if (string=? status "resource") "" (get-output-string lx-out))
                              (reverse lx-warnings) class message))))
    (define (on-raise c)
      (cond ((eq? c lx-output-limit-tag) (settle! "resource" '() "output-limit" ""))
            ((memq stage '(read expand))
             (settle! "source-error" '()
                      (string-append (symbol->string stage) ":" (condition-class c))
                      (describe c)))
            ((eq? stage 'input) (settle! "input-error" '() (condition-class c) (describe c)))
            (else (settle! "runtime-error" '() (condition-class c) (describe c)))))
    (lx-reset! limit)
    (call-with-current-continuation
     (lambda (abandon)
       (with-exception-handler
        (lambda (c) (on-raise c) (abandon #f))
        ;; MIT's reader folds case unless told not to; Lispex's symbols are case-sensitive.
        (lambda () (parameterize ((param:reader-fold-case? #f))
                     (evaluate source-bv input-bv (lambda (s) (set! stage s)) settle!))))))
    (if (not outcome) (settle! "runtime-error" '() "loop" ""))
    (apply answer outcome)))

(define (evaluate source-bv input-bv set-stage! settle!)
  (let ((forms (read-all-string (utf8->string source-bv)))
        (e (fresh-env)))
    (if input-bv
        (begin
          (set-stage! 'input)
          (let ((data (read-all-string (utf8->string input-bv))))
            (if (not (= (length data) 1)) (error "the input must be exactly one datum"))
            (environment-define e 'input (car data)))))
    ;; The whole program is syntaxed before any of it runs, as Lispex normalizes the whole
    ;; source first: a malformed form anywhere is a source error, with no output.
    (set-stage! 'expand)
    (let ((code (map (lambda (form) (syntax form e)) forms)))
      (set-stage! 'run)
      (let loop ((cs code) (fs forms) (last '()))
        (if (null? cs)
            ;; MIT's top-level `define` yields the name defined, `set!` the old value, and a
            ;; form that falls through (`cond` with no clause taken) MIT's unspecific object;
            ;; Lispex yields no value.
            (settle! "ok" (map lispex-write-string
                               (if (or (and (pair? forms) (define-form? (car (last-pair forms))))
                                       (and (= (length last) 1)
                                            (eq? (car last) unspecific-object)))
                                   '()
                                   last))
                     #f "")
            (loop (cdr cs) (cdr fs)
                  (call-with-values (lambda () (scode-eval (car cs) e)) list)))))))

;;; The loop. ------------------------------------------------------------------------------------

(define (main)
  (if (not proto-in)
      (begin (set! proto-in (open-binary-input-file "/dev/stdin"))
             (set! proto-out (open-binary-output-file "/dev/stdout" #t))))
  (write-bytevector (string->utf8 "\nREADY\n") proto-out)
  (flush-output proto-out)
  (let loop ()
    (let ((header (read-header proto-in)))
      (if (not (eof-object? header))
          (begin
            (let ((parts (split-spaces header)))
              (if (and (= (length parts) 4) (string=? (car parts) "RUN"))
                  (let* ((n (string->number (list-ref parts 1)))
                         (k (string->number (list-ref parts 2)))
                         (limit (string->number (list-ref parts 3)))
                         (source (read-bytes proto-in n))
                         (input (and (>= k 0) (read-bytes proto-in k))))
                    (run-case source input limit))
                  (answer "protocol-error" '() "" '() "protocol" header)))
            (loop)))))
  (exit 0))

(main)
