;; Rows as lists of cells (see cell-lists.ts). A list is T cell indices (i32, `index`), with T values
;; (f64, `value`) in the scaled form and two (`value`, `other`) in the pairs form; bases[r] is the
;; element offset of row r's list and weights[r] its weight. Each sum receives its terms in row order
;; and each dot product its terms in list order: the additions of the JavaScript loops they replace, so
;; the results are the same to the bit.
;; Pointers are byte offsets into the imported memory. Regenerate cells-wasm.ts after a change:
;; node scripts/build-wasm.mjs
(module
  (import "env" "memory" (memory 1))

  ;; For each row r < rows in order, every cell c of its list: sums[c] += weights[r].
  (func (export "addRows")
    (param $bases i32) (param $weights i32) (param $rows i32) (param $T i32) (param $index i32)
    (param $sums i32)
    (local $r i32) (local $t i32) (local $end i32) (local $w f64) (local $p i32)
    (block $done (loop $row
      (br_if $done (i32.ge_s (local.get $r) (local.get $rows)))
      (local.set $w (f64.load (i32.add (local.get $weights) (i32.shl (local.get $r) (i32.const 3)))))
      (local.set $t (i32.add (local.get $index) (i32.shl
        (i32.load (i32.add (local.get $bases) (i32.shl (local.get $r) (i32.const 2))))
        (i32.const 2))))
      (local.set $end (i32.add (local.get $t) (i32.shl (local.get $T) (i32.const 2))))
      (block $listed (loop $cell
        (br_if $listed (i32.ge_u (local.get $t) (local.get $end)))
        (local.set $p (i32.add (local.get $sums) (i32.shl (i32.load (local.get $t)) (i32.const 3))))
        (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (local.get $w)))
        (local.set $t (i32.add (local.get $t) (i32.const 4)))
        (br $cell)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $row))))

  ;; For each row r < rows in order, every entry t of its list: sums[index[t]] += weights[r] * value[t].
  (func (export "addScaledRows")
    (param $bases i32) (param $weights i32) (param $rows i32) (param $T i32) (param $index i32)
    (param $value i32) (param $sums i32)
    (local $r i32) (local $t i32) (local $end i32) (local $w f64) (local $p i32)
    (block $done (loop $row
      (br_if $done (i32.ge_s (local.get $r) (local.get $rows)))
      (local.set $w (f64.load (i32.add (local.get $weights) (i32.shl (local.get $r) (i32.const 3)))))
      (local.set $t (i32.load (i32.add (local.get $bases) (i32.shl (local.get $r) (i32.const 2)))))
      (local.set $end (i32.add (local.get $t) (local.get $T)))
      (block $listed (loop $entry
        (br_if $listed (i32.ge_u (local.get $t) (local.get $end)))
        (local.set $p (i32.add (local.get $sums) (i32.shl
          (i32.load (i32.add (local.get $index) (i32.shl (local.get $t) (i32.const 2))))
          (i32.const 3))))
        (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (f64.mul (local.get $w)
          (f64.load (i32.add (local.get $value) (i32.shl (local.get $t) (i32.const 3)))))))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $entry)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $row))))

  ;; For each row r < rows in order, every entry t of its list:
  ;; sums[index[t]] += (weights[r] * value[t]) * other[t].
  (func (export "addPairRows")
    (param $bases i32) (param $weights i32) (param $rows i32) (param $T i32) (param $index i32)
    (param $value i32) (param $other i32) (param $sums i32)
    (local $r i32) (local $t i32) (local $end i32) (local $w f64) (local $p i32)
    (block $done (loop $row
      (br_if $done (i32.ge_s (local.get $r) (local.get $rows)))
      (local.set $w (f64.load (i32.add (local.get $weights) (i32.shl (local.get $r) (i32.const 3)))))
      (local.set $t (i32.load (i32.add (local.get $bases) (i32.shl (local.get $r) (i32.const 2)))))
      (local.set $end (i32.add (local.get $t) (local.get $T)))
      (block $listed (loop $entry
        (br_if $listed (i32.ge_u (local.get $t) (local.get $end)))
        (local.set $p (i32.add (local.get $sums) (i32.shl
          (i32.load (i32.add (local.get $index) (i32.shl (local.get $t) (i32.const 2))))
          (i32.const 3))))
        (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (f64.mul
          (f64.mul (local.get $w)
            (f64.load (i32.add (local.get $value) (i32.shl (local.get $t) (i32.const 3)))))
          (f64.load (i32.add (local.get $other) (i32.shl (local.get $t) (i32.const 3)))))))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $entry)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $row))))

  ;; For each list q < count: out[q] = start + x[index[qT]] * value[qT] + … + x[index[qT+T−1]] * value[qT+T−1],
  ;; added left to right.
  (func (export "dots")
    (param $count i32) (param $T i32) (param $index i32) (param $value i32) (param $x i32)
    (param $start f64) (param $out i32)
    (local $q i32) (local $t i32) (local $end i32) (local $s f64)
    (block $done (loop $list
      (br_if $done (i32.ge_s (local.get $q) (local.get $count)))
      (local.set $s (local.get $start))
      (local.set $end (i32.add (local.get $t) (local.get $T)))
      (block $listed (loop $entry
        (br_if $listed (i32.ge_u (local.get $t) (local.get $end)))
        (local.set $s (f64.add (local.get $s) (f64.mul
          (f64.load (i32.add (local.get $x) (i32.shl
            (i32.load (i32.add (local.get $index) (i32.shl (local.get $t) (i32.const 2))))
            (i32.const 3))))
          (f64.load (i32.add (local.get $value) (i32.shl (local.get $t) (i32.const 3)))))))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $entry)))
      (f64.store (i32.add (local.get $out) (i32.shl (local.get $q) (i32.const 3))) (local.get $s))
      (local.set $q (i32.add (local.get $q) (i32.const 1)))
      (br $list))))
)
