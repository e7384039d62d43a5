;; The feature binner's loops (see binning.ts) on WebAssembly: a feature's column gathered from the
;; row-major table, the distinct values or greedy quantile bins of a sorted column, and every row's bin
;; code. The same comparisons and arithmetic as the JavaScript they replace, so the bins and codes are
;; the same to the bit. WebAssembly runs at full speed from a process's first fit: JavaScript loops
;; spend the first one waiting for V8 to optimise them.
;; Pointers are byte offsets into the imported memory: x is an n x d table (f64, row-major; binning.ts
;; passes one feature's values, d = 1), rows a list of row indices (i32), column and the bins' values
;; f64, codes one byte per row.
;; Regenerate binning-wasm.ts after a change: node scripts/build-wasm.mjs
(module
  (import "env" "memory" (memory 1))

  ;; Feature j of the rows rows[0..count) (of rows 0..count-1 when hasRows is 0) into column.
  (func (export "gather")
    (param $x i32) (param $d i32) (param $j i32) (param $hasRows i32) (param $rows i32) (param $count i32)
    (param $column i32)
    (local $r i32) (local $i i32)
    (block $done (loop $row
      (br_if $done (i32.ge_s (local.get $r) (local.get $count)))
      (local.set $i (if (result i32) (local.get $hasRows)
        (then (i32.load (i32.add (local.get $rows) (i32.shl (local.get $r) (i32.const 2)))))
        (else (local.get $r))))
      (f64.store (i32.add (local.get $column) (i32.shl (local.get $r) (i32.const 3)))
        (f64.load (i32.add (local.get $x)
          (i32.shl (i32.add (i32.mul (local.get $i) (local.get $d)) (local.get $j)) (i32.const 3)))))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $row)))
  )

  ;; The distinct values of sorted[0..n), in order, into out (when out is not -1); returns how many.
  (func (export "distinct") (param $sorted i32) (param $n i32) (param $out i32) (result i32)
    (local $i i32) (local $m i32) (local $v f64)
    (block $done (loop $value
      (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
      (local.set $v (f64.load (i32.add (local.get $sorted) (i32.shl (local.get $i) (i32.const 3)))))
      (if (i32.or (i32.eqz (local.get $i))
            (f64.ne (local.get $v)
              (f64.load (i32.add (local.get $sorted) (i32.shl (i32.sub (local.get $i) (i32.const 1)) (i32.const 3))))))
        (then
          (if (i32.ne (local.get $out) (i32.const -1))
            (then (f64.store (i32.add (local.get $out) (i32.shl (local.get $m) (i32.const 3))) (local.get $v))))
          (local.set $m (i32.add (local.get $m) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $value)))
    (local.get $m))

  ;; Greedy quantile bins over sorted[0..n): a bin closes once its cumulative count reaches the next
  ;; multiple of n / maxBins (a run of equal values never splits), the last at the end. Each bin's
  ;; smallest and largest value into lo and hi; returns how many.
  (func (export "greedy") (param $sorted i32) (param $n i32) (param $maxBins i32) (param $lo i32) (param $hi i32)
    (result i32)
    (local $step f64) (local $m i32) (local $start i32) (local $i i32) (local $end i32) (local $v f64)
    (local.set $step (f64.div (f64.convert_i32_s (local.get $n)) (f64.convert_i32_s (local.get $maxBins))))
    (block $done (loop $run
      (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
      (local.set $v (f64.load (i32.add (local.get $sorted) (i32.shl (local.get $i) (i32.const 3)))))
      (local.set $end (i32.add (local.get $i) (i32.const 1)))
      (block $ended (loop $same
        (br_if $ended (i32.ge_s (local.get $end) (local.get $n)))
        (br_if $ended (f64.ne
          (f64.load (i32.add (local.get $sorted) (i32.shl (local.get $end) (i32.const 3))))
          (local.get $v)))
        (local.set $end (i32.add (local.get $end) (i32.const 1)))
        (br $same)))
      (if (i32.or (i32.eq (local.get $end) (local.get $n))
            (i32.and (i32.gt_s (i32.sub (local.get $maxBins) (local.get $m)) (i32.const 1))
              (f64.ge (f64.convert_i32_s (local.get $end))
                (f64.mul (f64.convert_i32_s (i32.add (local.get $m) (i32.const 1))) (local.get $step)))))
        (then
          (f64.store (i32.add (local.get $lo) (i32.shl (local.get $m) (i32.const 3)))
            (f64.load (i32.add (local.get $sorted) (i32.shl (local.get $start) (i32.const 3)))))
          (f64.store (i32.add (local.get $hi) (i32.shl (local.get $m) (i32.const 3)))
            (f64.load (i32.add (local.get $sorted) (i32.shl (i32.sub (local.get $end) (i32.const 1)) (i32.const 3)))))
          (local.set $m (i32.add (local.get $m) (i32.const 1)))
          (local.set $start (local.get $end))))
      (local.set $i (local.get $end))
      (br $run)))
    (local.get $m))

  ;; Bin codes of feature j of rows 0..n-1 against its upper bin edges e[0..last) (the first edge >= the
  ;; value, by binary search; past every edge, the last bin), into codes from j * n.
  (func (export "search")
    (param $x i32) (param $n i32) (param $d i32) (param $j i32) (param $e i32) (param $last i32)
    (param $codes i32)
    (local $i i32) (local $v f64) (local $lo i32) (local $hi i32) (local $mid i32) (local $out i32)
    (local.set $out (i32.add (local.get $codes) (i32.mul (local.get $j) (local.get $n))))
    (block $done (loop $row
      (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
      (local.set $v (f64.load (i32.add (local.get $x)
        (i32.shl (i32.add (i32.mul (local.get $i) (local.get $d)) (local.get $j)) (i32.const 3)))))
      (local.set $lo (i32.const 0))
      (local.set $hi (local.get $last))
      (block $found (loop $halve
        (br_if $found (i32.ge_s (local.get $lo) (local.get $hi)))
        (local.set $mid (i32.shr_u (i32.add (local.get $lo) (local.get $hi)) (i32.const 1)))
        (if (f64.lt (f64.load (i32.add (local.get $e) (i32.shl (local.get $mid) (i32.const 3)))) (local.get $v))
          (then (local.set $lo (i32.add (local.get $mid) (i32.const 1))))
          (else (local.set $hi (local.get $mid))))
        (br $halve)))
      (i32.store8 (i32.add (local.get $out) (local.get $i)) (local.get $lo))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $row))))

  ;; Bin codes of feature j when its bins are its exact (categorical) codes: each value rounded to the
  ;; nearest integer (half up, as Math.round; codes are checked integers), into codes from j * n.
  (func (export "exact") (param $x i32) (param $n i32) (param $d i32) (param $j i32) (param $codes i32)
    (local $i i32) (local $out i32)
    (local.set $out (i32.add (local.get $codes) (i32.mul (local.get $j) (local.get $n))))
    (block $done (loop $row
      (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
      (i32.store8 (i32.add (local.get $out) (local.get $i))
        (i32.trunc_sat_f64_s (f64.floor (f64.add (f64.const 0.5)
          (f64.load (i32.add (local.get $x)
            (i32.shl (i32.add (i32.mul (local.get $i) (local.get $d)) (local.get $j)) (i32.const 3))))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $row))))
)
