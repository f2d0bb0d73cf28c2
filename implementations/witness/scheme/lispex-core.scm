;;; The Lispex prelude's portable half, loaded by the Chez and MIT witnesses (Guile has its own).
;;;
;;; Written from the Lispex language description, not from the Python kernel: a witness is only
;;; worth something if it shares nothing with what it checks. Plain top-level definitions in the
;;; subset of Scheme that Chez Scheme 9.5 (R6RS) and MIT/GNU Scheme 12.1 (R7RS) share. The host's
;;; own file (chez/lispex-witness/serve.ss, mit/lispex-witness/serve.scm) loads this one and
;;; defines what it uses but cannot say portably:
;;;   (%fault who message irritant ...)  raise the host's own error for a primitive's fault
;;;   (%error-object? x) (%error-message x) (%error-irritants x)   error objects, host conditions
;;;   (%procedure-name p)                 a procedure's name (string or symbol) or #f
;;;   (%write-other x port)               anything else a program can hold
;;;   (%read-u8 in) (%read-bytevector in n) (%flush port)   binary input, flushing
;;;   and the names `lispex-names` maps to that the host lacks (see the table at the end).
;;;
;;; The line the prelude draws: where R7RS leaves a behaviour unspecified (what `display`
;;; returns, `eq?` on numbers, how a float is printed, the default fill of `make-vector`), it
;;; takes Lispex's choice; where Lispex departs from what R7RS defines, or the host departs from
;;; R7RS, it keeps the host's behaviour and the difference is listed, named and explained, in the
;;; host's known-differences.toml.

;;; Run state: the program's output and warnings, reset by the serve loop for every case. ------

(define lx-out #f)            ; a string port
(define lx-out-bytes 0)
(define lx-out-limit 16777216)
(define lx-warnings '())      ; codes, newest first
(define lx-output-limit-tag (list 'lispex-output-limit))

(define (lx-reset! limit)
  (set! lx-out (open-output-string))
  (set! lx-out-bytes 0)
  (set! lx-out-limit limit)
  (set! lx-warnings '()))

(define (emit! text)
  (let ((n (+ lx-out-bytes (bytevector-length (string->utf8 text)))))
    (when (> n lx-out-limit) (raise lx-output-limit-tag))
    (set! lx-out-bytes n)
    (display text lx-out)))

(define (warn! code) (set! lx-warnings (cons code lx-warnings)))

;;; Printing: the `write` and `display` projections as the Lispex description gives them. -----

(define char-names
  '((#x20 . "space") (#x0A . "newline") (#x09 . "tab") (#x0D . "return") (#x00 . "null")
    (#x7F . "delete") (#x1B . "escape") (#x08 . "backspace") (#x07 . "alarm")))

;; Lower-case hex digits, as Lispex writes them (Chez's number->string writes upper case).
(define (hex n) (string-downcase (number->string n 16)))
(define (control? code) (or (< code #x20) (= code #x7F)))

(define (write-char-literal c port)
  (let* ((code (char->integer c)) (name (assv code char-names)))
    (display "#\\" port)
    (cond (name (display (cdr name) port))
          ((control? code)
           (display "x" port) (when (< code 16) (display "0" port)) (display (hex code) port))
          (else (write-char c port)))))

(define (write-string-literal s port)
  (write-char #\" port)
  (string-for-each
   (lambda (c)
     (let ((code (char->integer c)))
       (cond ((char=? c #\") (display "\\\"" port))
             ((char=? c #\\) (display "\\\\" port))
             ((= code #x0A) (display "\\n" port))
             ((= code #x09) (display "\\t" port))
             ((= code #x0D) (display "\\r" port))
             ((control? code)
              (display "\\x" port)
              (when (< code 16) (display "0" port))
              (display (hex code) port)
              (display ";" port))
             (else (write-char c port)))))
   s)
  (write-char #\" port))

(define (str-index s ch)
  (let loop ((i 0))
    (cond ((= i (string-length s)) #f)
          ((char=? (string-ref s i) ch) i)
          (else (loop (+ i 1))))))

(define (strip-leading-zeros t)
  (if (and (> (string-length t) 1) (char=? (string-ref t 0) #\0))
      (strip-leading-zeros (substring t 1 (string-length t)))
      t))

(define (strip-trailing-zeros t)
  (let ((n (string-length t)))
    (if (and (> n 1) (char=? (string-ref t (- n 1)) #\0))
        (strip-trailing-zeros (substring t 0 (- n 1)))
        t)))

;; Positional notation with the shortest digits that read back as the same double: the host's
;; `number->string` finds those digits (Chez writes 1e21, MIT .5 and 1.); only the point moves.
(define (float->string x)
  (if (not (finite? x))
      (number->string x)                ; never printed by Lispex: a listed difference
      (let* ((s (strip-mantissa-width (number->string x)))
             (neg (and (> (string-length s) 0) (char=? (string-ref s 0) #\-)))
             (body (if neg (substring s 1 (string-length s)) s))
             (epos (str-index body #\e))
             (mant (if epos (substring body 0 epos) body))
             (expo (if epos (string->number (substring body (+ epos 1) (string-length body))) 0))
             (dot (str-index mant #\.))
             (int-part (if dot (substring mant 0 dot) mant))
             (frac-part (if dot (substring mant (+ dot 1) (string-length mant)) ""))
             (digits0 (string-append int-part frac-part))
             (point0 (+ (string-length int-part) expo))
             (digits1 (if (<= point0 0)
                          (string-append (make-string (- 1 point0) #\0) digits0)
                          digits0))
             (point (if (<= point0 0) 1 point0))
             (digits (if (> point (string-length digits1))
                         (string-append digits1
                                        (make-string (- point (string-length digits1)) #\0))
                         digits1))
             (ip (strip-leading-zeros (substring digits 0 point)))
             (fp (strip-trailing-zeros (substring digits point (string-length digits))))
             (ip (if (string=? ip "") "0" ip))
             (fp (if (string=? fp "") "0" fp)))
        (string-append (if neg "-" "") ip "." fp))))

;; R6RS writes a subnormal with its mantissa width (Chez: 5e-324|1); the digits are before the bar.
(define (strip-mantissa-width s)
  (let ((bar (str-index s #\|))) (if bar (substring s 0 bar) s)))

(define (number->lispex-string n)
  (if (exact? n) (number->string n) (float->string n)))

;; Procedures the prelude binds are written under their Lispex name (an alias under the name of
;; the procedure it is the same object as): filled in by `lispex-bindings` below.
(define primitive-names '())
(define (primitive-name p)
  (let ((hit (assq p primitive-names))) (and hit (cdr hit))))

;; A structure that contains itself is written with a mark where it recurs, instead of looping:
;; Lispex writes datum labels there, which this writer does not attempt (a listed difference).
;; `path` holds the pairs and vectors being written around this one; a list's own spine is
;; checked with two pointers, so a long list costs no more than its length.
(define (write-datum x port display?)
  (write-datum* x port display? '()))

(define (write-datum* x port display? path)
  (define (sub y) (write-datum* y port display? (cons x path)))
  (cond
   ((and (or (pair? x) (vector? x)) (memq x path)) (display "#<cycle>" port))
   ((number? x) (display (number->lispex-string x) port))
   ((string? x) (if display? (display x port) (write-string-literal x port)))
   ((char? x) (if display? (write-char x port) (write-char-literal x port)))
   ((symbol? x) (display (symbol->string x) port))
   ((eq? x #t) (display "#t" port))
   ((eq? x #f) (display "#f" port))
   ((null? x) (display "()" port))
   ((pair? x)
    (display "(" port)
    (sub (car x))
    (let loop ((rest (cdr x)) (slow x) (step #f))
      (let ((slow (if step (cdr slow) slow)))
        (cond ((null? rest) #t)
              ((and (pair? rest) (eq? rest slow)) (display " . #<cycle>" port))
              ((pair? rest) (display " " port) (sub (car rest)) (loop (cdr rest) slow (not step)))
              (else (display " . " port) (sub rest)))))
    (display ")" port))
   ((vector? x)
    (display "#(" port)
    (let loop ((i 0))
      (when (< i (vector-length x))
        (when (> i 0) (display " " port))
        (sub (vector-ref x i))
        (loop (+ i 1))))
    (display ")" port))
   ((bytevector? x)
    (display "#u8(" port)
    (let loop ((i 0))
      (when (< i (bytevector-length x))
        (when (> i 0) (display " " port))
        (display (bytevector-u8-ref x i) port)
        (loop (+ i 1))))
    (display ")" port))
   ((procedure? x)
    (let ((name (or (primitive-name x) (%procedure-name x))))
      (if name
          (begin (display "#<procedure " port) (display name port) (display ">" port))
          (display "#<procedure>" port))))
   ((%error-object? x)
    (display "#<error-object " port)
    (write-string-literal (%error-message x) port)
    (display ">" port))
   (else (%write-other x port))))

(define (lispex-write-string x)
  (let ((port (open-output-string))) (write-datum x port #f) (get-output-string port)))
(define (lispex-display-string x)
  (let ((port (open-output-string))) (write-datum x port #t) (get-output-string port)))

;;; JSON for the answer line. -------------------------------------------------------------------

(define (json-string s port)
  (write-char #\" port)
  (string-for-each
   (lambda (c)
     (let ((code (char->integer c)))
       (cond ((char=? c #\") (display "\\\"" port))
             ((char=? c #\\) (display "\\\\" port))
             ((< code #x20)
              (display "\\u00" port)
              (when (< code 16) (display "0" port))
              (display (number->string code 16) port))
             (else (write-char c port)))))
   s)
  (write-char #\" port))

(define (json-list items port)
  (display "[" port)
  (let loop ((xs items) (first #t))
    (unless (null? xs)
      (unless first (display "," port))
      (json-string (car xs) port)
      (loop (cdr xs) #f)))
  (display "]" port))

(define (write-answer port status values stdout warnings error-class message0)
  (define message (if (string? message0) message0 (lispex-write-string message0)))
  (display "{\"status\":" port) (json-string status port)
  (display ",\"values\":" port) (json-list values port)
  (display ",\"stdout\":" port) (json-string stdout port)
  (display ",\"warnings\":" port) (json-list warnings port)
  (display ",\"error\":" port)
  (if error-class
      (begin (display "{\"class\":" port) (json-string error-class port)
             (display ",\"message\":" port) (json-string message port) (display "}" port))
      (display "null" port))
  (display "}" port)
  (newline port)
  (%flush port))

;;; Reading a framed request from a binary port. ------------------------------------------------

(define (read-header in)
  "The header line's bytes as a string, or the eof object."
  (let loop ((acc '()))
    (let ((b (%read-u8 in)))
      (cond ((eof-object? b) (if (null? acc) b (list->string (map integer->char (reverse acc)))))
            ((= b 10) (list->string (map integer->char (reverse acc))))
            (else (loop (cons b acc)))))))

(define (split-spaces s)
  (let loop ((i 0) (start 0) (acc '()))
    (cond ((= i (string-length s))
           (reverse (if (> i start) (cons (substring s start i) acc) acc)))
          ((char=? (string-ref s i) #\space)
           (loop (+ i 1) (+ i 1) (if (> i start) (cons (substring s start i) acc) acc)))
          (else (loop (+ i 1) start acc)))))

(define (read-bytes in n)
  (if (<= n 0) (make-bytevector 0) (let ((bv (%read-bytevector in n)))
                                     (if (eof-object? bv) (make-bytevector 0) bv))))

(define (read-all-string text)
  (let ((port (open-input-string text)))
    (let loop ((forms '()))
      (let ((x (read port)))
        (if (eof-object? x) (reverse forms) (loop (cons x forms)))))))

;;; The Lispex names with no host counterpart of the same behaviour. ----------------------------

(define (lx-filter pred lst)
  (let loop ((l lst) (acc '()))
    (cond ((null? l) (reverse acc))
          ((pair? l) (loop (cdr l) (if (pred (car l)) (cons (car l) acc) acc)))
          (else (%fault "filter" "not a proper list" lst)))))

(define (lx-fold-left f acc lst)
  (if (null? lst) acc (lx-fold-left f (f acc (car lst)) (cdr lst))))

(define (lx-fold-right f acc lst)
  (if (null? lst) acc (f (car lst) (lx-fold-right f acc (cdr lst)))))

(define (lx-any? pred lst)
  (let loop ((l lst)) (cond ((null? l) #f) ((pred (car l)) #t) (else (loop (cdr l))))))

(define (lx-all? pred lst)
  (let loop ((l lst)) (cond ((null? l) #t) ((pred (car l)) (loop (cdr l))) (else #f))))

;; R7RS leaves the value of these unspecified; Lispex says zero values.
(define (lx-display x) (emit! (lispex-display-string x)) (values))
(define (lx-write x) (emit! (lispex-write-string x)) (values))
(define (lx-newline) (emit! "\n") (values))
(define (lx-println x) (emit! (lispex-display-string x)) (emit! "\n") (values))
(define (lx-for-each f lst) (for-each f lst) (values))
(define (lx-vector-for-each f v) (vector-for-each f v) (values))
(define (lx-string-for-each f s) (string-for-each f s) (values))
(define (lx-vector-set! v i x) (vector-set! v i x) (values))

(define (lx-percent a b) (warn! "W330") (modulo a b))
(define (lx-list-first p) (warn! "W331") (car p))
(define (lx-list-rest p) (warn! "W331") (cdr p))
(define (lx-not-equal? a b) (not (equal? a b)))
;; Lispex's eq? behaves as eqv? (R7RS leaves eq? on numbers and characters unspecified), and so do
;; memq and assq, but each is a primitive of its own, written under its own name.
(define (lx-eq? a b) (eqv? a b))
(define (lx-memq x l) (memv x l))
(define (lx-assq x l) (assv x l))

;; R7RS leaves the default fill unspecified; Lispex fills with 0 (a space for strings).
(define (lx-make-list n . fill) (make-list n (if (null? fill) 0 (car fill))))
(define (lx-make-vector n . fill) (make-vector n (if (null? fill) 0 (car fill))))
(define (lx-make-string n . fill) (make-string n (if (null? fill) #\space (car fill))))

(define (lx-number->string n . radix)
  (if (null? radix) (number->lispex-string n) (string-downcase (number->string n (car radix)))))

;; R7RS lets an exact zero times an inexact number be exact 0 (Chez and MIT answer 0); Lispex's
;; contagion makes it inexact, 0.0.
(define (lx-* . args)
  (let ((r (apply * args)))
    (if (and (exact? r) (lx-any? inexact? args)) (inexact r) r)))

;; R7RS's list-copy copies the pairs of an improper list and returns a non-list as it is (Chez's
;; refuses both).
(define (lx-list-copy x)
  (if (pair? x) (cons (car x) (lx-list-copy (cdr x))) x))

;; R7RS's optional start and end, on the hosts' one-argument R6RS forms as on MIT's own.
(define (range who len args)
  (let* ((start (if (pair? args) (car args) 0))
         (end (if (and (pair? args) (pair? (cdr args))) (cadr args) len)))
    (unless (and (exact-integer*? start) (exact-integer*? end) (<= 0 start end len))
      (%fault who "index out of range" start end))
    (cons start end)))
(define (exact-integer*? k) (and (integer? k) (exact? k)))
(define (lx-string-copy s . args)
  (let ((r (range "string-copy" (string-length s) args))) (substring s (car r) (cdr r))))
(define (lx-string->list s . args)
  (string->list (apply lx-string-copy s args)))
(define (lx-string->vector s . args)
  (list->vector (apply lx-string->list s args)))
(define (lx-vector->list v . args)
  (let ((r (range "vector->list" (vector-length v) args)))
    (let loop ((i (- (cdr r) 1)) (acc '()))
      (if (< i (car r)) acc (loop (- i 1) (cons (vector-ref v i) acc))))))
(define (lx-vector-copy v . args) (list->vector (apply lx-vector->list v args)))
(define (lx-vector->string v . args) (list->string (apply lx-vector->list v args)))

(define (lx-exact-integer? x) (and (integer? x) (exact? x)))
(define (lx-square x) (* x x))
(define (lx-floor-quotient a b) (floor (/ a b)))
(define (lx-floor-remainder a b) (modulo a b))
(define (lx-floor/ a b) (values (lx-floor-quotient a b) (modulo a b)))
(define (lx-truncate-quotient a b) (quotient a b))
(define (lx-truncate-remainder a b) (remainder a b))
(define (lx-truncate/ a b) (values (quotient a b) (remainder a b)))

;; R7RS leaves the order of map's calls unspecified (Chez goes right to left); Lispex's is left
;; to right.
(define (lx-map f lst . lsts)
  (if (null? lsts)
      (let loop ((l lst) (acc '()))
        (cond ((pair? l) (let ((y (f (car l)))) (loop (cdr l) (cons y acc))))
              ((null? l) (reverse acc))
              (else (%fault "map" "not a proper list" lst))))
      (let loop ((ls (cons lst lsts)) (acc '()))
        (if (all-pairs? ls)
            (let ((y (apply f (map car ls)))) (loop (map cdr ls) (cons y acc)))
            (reverse acc)))))
(define (all-pairs? ls) (or (null? ls) (and (pair? (car ls)) (all-pairs? (cdr ls)))))
(define (lx-vector-map f v . vs)
  (list->vector (apply lx-map f (vector->list v) (map vector->list vs))))
(define (lx-string-map f s) (list->string (lx-map f (string->list s))))

;; A code point that is no Unicode scalar value is an error for integer->char in R7RS; MIT makes
;; a character of it.
(define (lx-integer->char n)
  (if (and (integer? n) (exact? n) (or (< n 0) (> n #x10FFFF) (<= #xD800 n #xDFFF)))
      (%fault "integer->char" "not a Unicode scalar value" n)
      (integer->char n)))

;; Lispex continuations escape upward once: invoked after the call/cc has returned they are an
;; error, never a re-entry (a host's full continuation would run the rest of the program again).
;; The values travel in a thunk, so that an escape with several values or none needs nothing of
;; the host's continuations but one value.
(define (lx-call/cc f)
  (let ((active #t))
    (let ((thunk
           (call-with-current-continuation
            (lambda (k)
              (dynamic-wind
               (lambda () #f)
               (lambda ()
                 (call-with-values
                     (lambda ()
                       (f (lambda vals
                            (if active
                                (k (lambda () (apply values vals)))
                                (%fault "call/cc" "escape continuation is no longer active")))))
                   (lambda results (lambda () (apply values results)))))
               (lambda () (set! active #f)))))))
      (thunk))))

;;; The table: each Lispex name and the host name it is bound to (an alias is the same host
;;; name, so the very same procedure). -----------------------------------------------------------

(define lispex-names
  '(;; equality
    ("!=" . lx-not-equal?) ("==" . equal?) ("boolean=?" . boolean=?)
    ;; R7RS leaves eq? on numbers and characters unspecified; Lispex's eq? is eqv?.
    ("eq?" . lx-eq?) ("equal?" . equal?) ("eqv?" . eqv?) ("symbol=?" . symbol=?)
    ;; predicates
    ("boolean?" . boolean?) ("bytevector?" . bytevector?) ("char?" . char?)
    ("complex?" . complex?) ("empty?" . null?) ("error-object?" . lx-error-object?)
    ("even?" . even?) ("exact-integer?" . lx-exact-integer?) ("exact?" . exact?)
    ("inexact?" . inexact?) ("integer?" . integer?) ("list?" . list?)
    ("negative?" . negative?) ("not" . not) ("null?" . null?) ("number?" . number?)
    ("odd?" . odd?) ("pair?" . pair?) ("positive?" . positive?)
    ("procedure?" . procedure?) ("rational?" . rational?) ("real?" . real?)
    ("string?" . string?) ("symbol?" . symbol?) ("vector?" . vector?) ("zero?" . zero?)
    ;; numbers
    ("%" . lx-percent) ("*" . lx-*) ("+" . +) ("-" . -) ("/" . /) ("<" . <) ("<=" . <=)
    ("=" . =) (">" . >) (">=" . >=) ("abs" . abs) ("ceiling" . ceiling)
    ("exact" . exact) ("exact->inexact" . inexact)
    ("exact-integer-sqrt" . exact-integer-sqrt) ("expt" . expt) ("floor" . floor)
    ("floor-quotient" . lx-floor-quotient) ("floor-remainder" . lx-floor-remainder)
    ("floor/" . lx-floor/) ("gcd" . gcd) ("inexact" . inexact)
    ("inexact->exact" . exact) ("lcm" . lcm) ("max" . max) ("min" . min)
    ("modulo" . modulo) ("number->string" . lx-number->string)
    ("quotient" . quotient) ("remainder" . remainder) ("round" . round)
    ("square" . lx-square) ("string->number" . string->number) ("truncate" . truncate)
    ("truncate-quotient" . lx-truncate-quotient)
    ("truncate-remainder" . lx-truncate-remainder) ("truncate/" . lx-truncate/)
    ;; pairs and lists
    ("append" . append) ("assoc" . assoc) ("assq" . lx-assq) ("assv" . assv)
    ("caaaar" . caaaar) ("caaadr" . caaadr) ("caaar" . caaar) ("caadar" . caadar)
    ("caaddr" . caaddr) ("caadr" . caadr) ("caar" . caar) ("cadaar" . cadaar)
    ("cadadr" . cadadr) ("cadar" . cadar) ("caddar" . caddar) ("cadddr" . cadddr)
    ("caddr" . caddr) ("cadr" . cadr) ("car" . car) ("cdaaar" . cdaaar)
    ("cdaadr" . cdaadr) ("cdaar" . cdaar) ("cdadar" . cdadar) ("cdaddr" . cdaddr)
    ("cdadr" . cdadr) ("cdar" . cdar) ("cddaar" . cddaar) ("cddadr" . cddadr)
    ("cddar" . cddar) ("cdddar" . cdddar) ("cddddr" . cddddr) ("cdddr" . cdddr)
    ("cddr" . cddr) ("cdr" . cdr) ("cons" . cons) ("first" . car) ("length" . length)
    ("list" . list) ("list->string" . list->string) ("list->vector" . list->vector)
    ("list-copy" . lx-list-copy) ("list-first" . lx-list-first) ("list-ref" . lx-list-ref)
    ("list-rest" . lx-list-rest) ("list-tail" . lx-list-tail) ("make-list" . lx-make-list)
    ("member" . member) ("memq" . lx-memq) ("memv" . memv) ("nth" . lx-list-ref)
    ("rest" . cdr) ("reverse" . reverse)
    ;; higher-order
    ("all?" . lx-all?) ("any?" . lx-any?) ("apply" . apply) ("filter" . lx-filter)
    ("fold-left" . lx-fold-left) ("fold-right" . lx-fold-right) ("for-each" . lx-for-each)
    ("map" . lx-map) ("reduce" . lx-fold-left) ("string-for-each" . lx-string-for-each)
    ("string-map" . lx-string-map) ("vector-for-each" . lx-vector-for-each)
    ("vector-map" . lx-vector-map)
    ;; characters
    ("char->integer" . char->integer) ("char-alphabetic?" . char-alphabetic?)
    ("char-ci<=?" . char-ci<=?) ("char-ci<?" . char-ci<?) ("char-ci=?" . char-ci=?)
    ("char-ci>=?" . char-ci>=?) ("char-ci>?" . char-ci>?)
    ("char-downcase" . char-downcase) ("char-foldcase" . char-foldcase)
    ("char-lower-case?" . char-lower-case?) ("char-numeric?" . char-numeric?)
    ("char-upcase" . char-upcase) ("char-upper-case?" . char-upper-case?)
    ("char-whitespace?" . char-whitespace?) ("char<=?" . char<=?) ("char<?" . char<?)
    ("char=?" . char=?) ("char>=?" . char>=?) ("char>?" . char>?)
    ("integer->char" . lx-integer->char)
    ;; strings and symbols
    ("make-string" . lx-make-string) ("string->list" . lx-string->list)
    ("string->symbol" . string->symbol) ("string->vector" . lx-string->vector)
    ("string-append" . string-append) ("string-ci<=?" . string-ci<=?)
    ("string-ci<?" . string-ci<?) ("string-ci=?" . string-ci=?)
    ("string-ci>=?" . string-ci>=?) ("string-ci>?" . string-ci>?)
    ("string-copy" . lx-string-copy) ("string-downcase" . string-downcase)
    ("string-foldcase" . string-foldcase) ("string-length" . string-length)
    ("string-ref" . string-ref) ("string-upcase" . string-upcase)
    ("string<=?" . string<=?) ("string<?" . string<?) ("string=?" . string=?)
    ("string>=?" . string>=?) ("string>?" . string>?) ("substring" . substring)
    ("symbol->string" . symbol->string) ("vector->string" . lx-vector->string)
    ;; vectors and bytevectors
    ("bytevector" . lx-bytevector) ("bytevector-length" . bytevector-length)
    ("bytevector-u8-ref" . bytevector-u8-ref) ("make-bytevector" . lx-make-bytevector)
    ("make-vector" . lx-make-vector) ("vector" . vector) ("vector->list" . lx-vector->list)
    ("vector-copy" . lx-vector-copy) ("vector-length" . vector-length)
    ("vector-ref" . vector-ref) ("vector-set!" . lx-vector-set!)
    ;; control
    ("call-with-current-continuation" . lx-call/cc) ("call-with-values" . call-with-values)
    ("call/cc" . lx-call/cc) ("dynamic-wind" . dynamic-wind) ("error" . lx-error)
    ("error-object-irritants" . lx-error-object-irritants)
    ("error-object-message" . lx-error-object-message) ("raise" . raise)
    ("raise-continuable" . raise-continuable) ("values" . values)
    ("with-exception-handler" . with-exception-handler)
    ;; output
    ("display" . lx-display) ("newline" . lx-newline) ("println" . lx-println)
    ("write" . lx-write)))

(define (lx-error-object? x) (%error-object? x))
(define (lx-error-object-message e) (%error-message e))
(define (lx-error-object-irritants e) (%error-irritants e))

;; The forms a Lispex program may use, besides the three stricter ones the host defines (`if`
;; with exactly three arms; `when` and `unless` that skip yield zero values).
(define lispex-keywords
  '(quote quasiquote unquote unquote-splicing lambda begin set! define let let* letrec cond case
    and or do else guard))

;; R7RS extensions Lispex forbids as forms: refused while the program is expanded, so that they
;; are source errors, as in Lispex.
(define lispex-forbidden
  '(define-syntax syntax-rules syntax-case let-syntax letrec-syntax define-library include
    include-ci include-library-declarations define-values let-values let*-values))

;; (symbol . value) for every Lispex name, looked up with the host's `resolve`; records the
;; Lispex name each procedure is written under (canonical names first).
(define (lispex-bindings resolve)
  (let ((table (map (lambda (entry) (cons (string->symbol (car entry)) (resolve (cdr entry))))
                    lispex-names)))
    (for-each (lambda (name)
                (let ((entry (assq (string->symbol name) table)))
                  (set! primitive-names (cons (cons (cdr entry) name) primitive-names))))
              '("car" "cdr" "null?" "equal?" "list-ref" "fold-left" "exact" "exact->inexact"
                "call-with-current-continuation" "eqv?" "memv" "assv"))
    (for-each (lambda (entry)
                (unless (primitive-name (cdr entry))
                  (set! primitive-names
                        (cons (cons (cdr entry) (symbol->string (car entry))) primitive-names))))
              table)
    table))
