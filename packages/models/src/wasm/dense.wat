;; The MLP's inner loops (see dense-stack.ts) on WebAssembly SIMD: two doubles per instruction.
;; Every output keeps the additions of the scalar code in the same order (lanes run side by side,
;; never reassociated; no fused multiply-add), so results are the same to the bit.
;; Pointers are byte offsets into the memory; `at` arrays hold element offsets (a row's start in W).
;; Regenerate dense-wasm.ts after a change: node scripts/build-wasm.mjs
(module
  (memory (export "memory") 1)

  ;; out[u] = b[u] + sum_t val[t] * W[at[t] + u] for u < outW; eight outputs at a time, then two, then one.
  (func $sumRows (export "sumRows")
    (param $at i32) (param $val i32) (param $nz i32) (param $W i32) (param $b i32) (param $outW i32)
    (param $out i32)
    (local $u i32) (local $t i32) (local $v v128) (local $w i32) (local $s f64)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (block $done8
      (loop $blocks8
        (br_if $done8 (i32.gt_s (i32.add (local.get $u) (i32.const 8)) (local.get $outW)))
        (local.set $w (i32.add (local.get $b) (i32.shl (local.get $u) (i32.const 3))))
        (local.set $s0 (v128.load (local.get $w)))
        (local.set $s1 (v128.load offset=16 (local.get $w)))
        (local.set $s2 (v128.load offset=32 (local.get $w)))
        (local.set $s3 (v128.load offset=48 (local.get $w)))
        (local.set $t (i32.const 0))
        (block $end
          (loop $terms
            (br_if $end (i32.ge_s (local.get $t) (local.get $nz)))
            (local.set $v
              (f64x2.splat (f64.load (i32.add (local.get $val) (i32.shl (local.get $t) (i32.const 3))))))
            (local.set $w
              (i32.add (local.get $W)
                (i32.shl
                  (i32.add (i32.load (i32.add (local.get $at) (i32.shl (local.get $t) (i32.const 2))))
                    (local.get $u))
                  (i32.const 3))))
            (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $v) (v128.load (local.get $w)))))
            (local.set $s1
              (f64x2.add (local.get $s1) (f64x2.mul (local.get $v) (v128.load offset=16 (local.get $w)))))
            (local.set $s2
              (f64x2.add (local.get $s2) (f64x2.mul (local.get $v) (v128.load offset=32 (local.get $w)))))
            (local.set $s3
              (f64x2.add (local.get $s3) (f64x2.mul (local.get $v) (v128.load offset=48 (local.get $w)))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $terms)))
        (local.set $w (i32.add (local.get $out) (i32.shl (local.get $u) (i32.const 3))))
        (v128.store (local.get $w) (local.get $s0))
        (v128.store offset=16 (local.get $w) (local.get $s1))
        (v128.store offset=32 (local.get $w) (local.get $s2))
        (v128.store offset=48 (local.get $w) (local.get $s3))
        (local.set $u (i32.add (local.get $u) (i32.const 8)))
        (br $blocks8)))
    (block $done2
      (loop $blocks2
        (br_if $done2 (i32.gt_s (i32.add (local.get $u) (i32.const 2)) (local.get $outW)))
        (local.set $s0 (v128.load (i32.add (local.get $b) (i32.shl (local.get $u) (i32.const 3)))))
        (local.set $t (i32.const 0))
        (block $end
          (loop $terms
            (br_if $end (i32.ge_s (local.get $t) (local.get $nz)))
            (local.set $v
              (f64x2.splat (f64.load (i32.add (local.get $val) (i32.shl (local.get $t) (i32.const 3))))))
            (local.set $w
              (i32.add (local.get $W)
                (i32.shl
                  (i32.add (i32.load (i32.add (local.get $at) (i32.shl (local.get $t) (i32.const 2))))
                    (local.get $u))
                  (i32.const 3))))
            (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $v) (v128.load (local.get $w)))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $terms)))
        (v128.store (i32.add (local.get $out) (i32.shl (local.get $u) (i32.const 3))) (local.get $s0))
        (local.set $u (i32.add (local.get $u) (i32.const 2)))
        (br $blocks2)))
    (if (i32.lt_s (local.get $u) (local.get $outW))
      (then
        (local.set $s (f64.load (i32.add (local.get $b) (i32.shl (local.get $u) (i32.const 3)))))
        (local.set $t (i32.const 0))
        (block $end
          (loop $terms
            (br_if $end (i32.ge_s (local.get $t) (local.get $nz)))
            (local.set $s
              (f64.add (local.get $s)
                (f64.mul
                  (f64.load (i32.add (local.get $val) (i32.shl (local.get $t) (i32.const 3))))
                  (f64.load
                    (i32.add (local.get $W)
                      (i32.shl
                        (i32.add (i32.load (i32.add (local.get $at) (i32.shl (local.get $t) (i32.const 2))))
                          (local.get $u))
                        (i32.const 3)))))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $terms)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $u) (i32.const 3))) (local.get $s)))))

  ;; The non-zero values of the n doubles at src (-0 counts as zero) into val, and for each its
  ;; position times stride into at. Returns how many. Both scratch arrays need room for n entries.
  (func $nonZeros (param $src i32) (param $n i32) (param $stride i32) (param $at i32) (param $val i32)
    (result i32)
    (local $k i32) (local $nz i32) (local $a f64)
    (block $end
      (loop $scan
        (br_if $end (i32.ge_s (local.get $k) (local.get $n)))
        (local.set $a (f64.load (i32.add (local.get $src) (i32.shl (local.get $k) (i32.const 3)))))
        ;; Written whatever the value; kept only when it is not zero (no branch to mispredict).
        (i32.store (i32.add (local.get $at) (i32.shl (local.get $nz) (i32.const 2)))
          (i32.mul (local.get $k) (local.get $stride)))
        (f64.store (i32.add (local.get $val) (i32.shl (local.get $nz) (i32.const 3))) (local.get $a))
        (local.set $nz (i32.add (local.get $nz) (f64.ne (local.get $a) (f64.const 0))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $scan)))
    (local.get $nz))

  ;; out = x . W + b for m rows of x (m x inW): each row's non-zero inputs gathered, then sumRows.
  (func (export "dense")
    (param $x i32) (param $m i32) (param $inW i32) (param $W i32) (param $b i32) (param $outW i32)
    (param $out i32) (param $at i32) (param $val i32)
    (local $r i32)
    (block $end
      (loop $rows
        (br_if $end (i32.ge_s (local.get $r) (local.get $m)))
        (call $sumRows (local.get $at) (local.get $val)
          (call $nonZeros
            (i32.add (local.get $x) (i32.shl (i32.mul (local.get $r) (local.get $inW)) (i32.const 3)))
            (local.get $inW) (local.get $outW) (local.get $at) (local.get $val))
          (local.get $W) (local.get $b) (local.get $outW)
          (i32.add (local.get $out) (i32.shl (i32.mul (local.get $r) (local.get $outW)) (i32.const 3))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))

  ;; First layer: row r's entries are at[r*d ..] / val[r*d ..], count[r] of them (at: column * h).
  (func (export "sparseRows")
    (param $at i32) (param $val i32) (param $count i32) (param $d i32) (param $m i32) (param $W i32)
    (param $b i32) (param $h i32) (param $out i32)
    (local $r i32)
    (block $end
      (loop $rows
        (br_if $end (i32.ge_s (local.get $r) (local.get $m)))
        (call $sumRows
          (i32.add (local.get $at) (i32.shl (i32.mul (local.get $r) (local.get $d)) (i32.const 2)))
          (i32.add (local.get $val) (i32.shl (i32.mul (local.get $r) (local.get $d)) (i32.const 3)))
          (i32.load (i32.add (local.get $count) (i32.shl (local.get $r) (i32.const 2))))
          (local.get $W) (local.get $b) (local.get $h)
          (i32.add (local.get $out) (i32.shl (i32.mul (local.get $r) (local.get $h)) (i32.const 3))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))

  ;; Wt (outW x inW) = the transpose of W (inW x outW).
  (func (export "transpose") (param $W i32) (param $inW i32) (param $outW i32) (param $Wt i32)
    (local $k i32) (local $u i32)
    (block $endk
      (loop $ks
        (br_if $endk (i32.ge_s (local.get $k) (local.get $inW)))
        (local.set $u (i32.const 0))
        (block $endu
          (loop $us
            (br_if $endu (i32.ge_s (local.get $u) (local.get $outW)))
            (f64.store
              (i32.add (local.get $Wt)
                (i32.shl (i32.add (i32.mul (local.get $u) (local.get $inW)) (local.get $k)) (i32.const 3)))
              (f64.load
                (i32.add (local.get $W)
                  (i32.shl (i32.add (i32.mul (local.get $k) (local.get $outW)) (local.get $u)) (i32.const 3)))))
            (local.set $u (i32.add (local.get $u) (i32.const 1)))
            (br $us)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $ks))))

  ;; below's deltas (m x inW) = (delta (m x outW) . Wt^T) * act'(below), act 0 relu, 1 tanh, 2 sigmoid.
  (func (export "backDelta")
    (param $delta i32) (param $m i32) (param $outW i32) (param $Wt i32) (param $zeros i32) (param $inW i32)
    (param $db i32) (param $below i32) (param $act i32) (param $at i32) (param $val i32)
    (local $r i32) (local $k i32) (local $p i32) (local $a f64) (local $g f64)
    (block $end
      (loop $rows
        (br_if $end (i32.ge_s (local.get $r) (local.get $m)))
        (call $sumRows (local.get $at) (local.get $val)
          (call $nonZeros
            (i32.add (local.get $delta) (i32.shl (i32.mul (local.get $r) (local.get $outW)) (i32.const 3)))
            (local.get $outW) (local.get $inW) (local.get $at) (local.get $val))
          (local.get $Wt) (local.get $zeros) (local.get $inW)
          (i32.add (local.get $db) (i32.shl (i32.mul (local.get $r) (local.get $inW)) (i32.const 3))))
        (local.set $k (i32.const 0))
        (block $endk
          (loop $ks
            (br_if $endk (i32.ge_s (local.get $k) (local.get $inW)))
            (local.set $p (i32.shl (i32.add (i32.mul (local.get $r) (local.get $inW)) (local.get $k)) (i32.const 3)))
            (local.set $a (f64.load (i32.add (local.get $below) (local.get $p))))
            (local.set $g
              (if (result f64) (i32.eqz (local.get $act))
                (then (select (f64.const 1) (f64.const 0) (f64.gt (local.get $a) (f64.const 0))))
                (else
                  (if (result f64) (i32.eq (local.get $act) (i32.const 1))
                    (then (f64.sub (f64.const 1) (f64.mul (local.get $a) (local.get $a))))
                    (else (f64.mul (local.get $a) (f64.sub (f64.const 1) (local.get $a))))))))
            (f64.store (i32.add (local.get $db) (local.get $p))
              (f64.mul (f64.load (i32.add (local.get $db) (local.get $p))) (local.get $g)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $ks)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))

;; gb[u] += delta[r][u] row by row; gW[k][u] += sum_r x[r][k] * delta[r][u] (the sum from 0, rows in
  ;; order), eight units at a time, then two, then one.
  (func (export "accumulate")
    (param $x i32) (param $delta i32) (param $m i32) (param $inW i32) (param $outW i32) (param $gW i32)
    (param $gb i32)
    (local $r i32) (local $k i32) (local $u i32) (local $p i32) (local $xs v128) (local $s f64)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (block $end
      (loop $rows
        (br_if $end (i32.ge_s (local.get $r) (local.get $m)))
        (local.set $u (i32.const 0))
        (block $endu
          (loop $us
            (br_if $endu (i32.ge_s (local.get $u) (local.get $outW)))
            (local.set $p (i32.add (local.get $gb) (i32.shl (local.get $u) (i32.const 3))))
            (f64.store (local.get $p)
              (f64.add (f64.load (local.get $p))
                (f64.load
                  (i32.add (local.get $delta)
                    (i32.shl (i32.add (i32.mul (local.get $r) (local.get $outW)) (local.get $u)) (i32.const 3))))))
            (local.set $u (i32.add (local.get $u) (i32.const 1)))
            (br $us)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows)))
    (block $endk
      (loop $ks
        (br_if $endk (i32.ge_s (local.get $k) (local.get $inW)))
        (local.set $u (i32.const 0))
        (block $end8
          (loop $blocks8
            (br_if $end8 (i32.gt_s (i32.add (local.get $u) (i32.const 8)) (local.get $outW)))
            (local.set $s0 (v128.const f64x2 0 0))
            (local.set $s1 (v128.const f64x2 0 0))
            (local.set $s2 (v128.const f64x2 0 0))
            (local.set $s3 (v128.const f64x2 0 0))
            (local.set $r (i32.const 0))
            (block $endr
              (loop $rs
                (br_if $endr (i32.ge_s (local.get $r) (local.get $m)))
                (local.set $xs
                  (f64x2.splat
                    (f64.load
                      (i32.add (local.get $x)
                        (i32.shl (i32.add (i32.mul (local.get $r) (local.get $inW)) (local.get $k)) (i32.const 3))))))
                (local.set $p
                  (i32.add (local.get $delta)
                    (i32.shl (i32.add (i32.mul (local.get $r) (local.get $outW)) (local.get $u)) (i32.const 3))))
                (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $xs) (v128.load (local.get $p)))))
                (local.set $s1
                  (f64x2.add (local.get $s1) (f64x2.mul (local.get $xs) (v128.load offset=16 (local.get $p)))))
                (local.set $s2
                  (f64x2.add (local.get $s2) (f64x2.mul (local.get $xs) (v128.load offset=32 (local.get $p)))))
                (local.set $s3
                  (f64x2.add (local.get $s3) (f64x2.mul (local.get $xs) (v128.load offset=48 (local.get $p)))))
                (local.set $r (i32.add (local.get $r) (i32.const 1)))
                (br $rs)))
            (local.set $p
              (i32.add (local.get $gW)
                (i32.shl (i32.add (i32.mul (local.get $k) (local.get $outW)) (local.get $u)) (i32.const 3))))
            (v128.store (local.get $p) (f64x2.add (v128.load (local.get $p)) (local.get $s0)))
            (v128.store offset=16 (local.get $p) (f64x2.add (v128.load offset=16 (local.get $p)) (local.get $s1)))
            (v128.store offset=32 (local.get $p) (f64x2.add (v128.load offset=32 (local.get $p)) (local.get $s2)))
            (v128.store offset=48 (local.get $p) (f64x2.add (v128.load offset=48 (local.get $p)) (local.get $s3)))
            (local.set $u (i32.add (local.get $u) (i32.const 8)))
            (br $blocks8)))
        (block $endpairs
          (loop $pairs
            (br_if $endpairs (i32.gt_s (i32.add (local.get $u) (i32.const 2)) (local.get $outW)))
            (local.set $s0 (v128.const f64x2 0 0))
            (local.set $r (i32.const 0))
            (block $endr
              (loop $rs
                (br_if $endr (i32.ge_s (local.get $r) (local.get $m)))
                (local.set $xs
                  (f64x2.splat
                    (f64.load
                      (i32.add (local.get $x)
                        (i32.shl (i32.add (i32.mul (local.get $r) (local.get $inW)) (local.get $k)) (i32.const 3))))))
                (local.set $s0
                  (f64x2.add (local.get $s0)
                    (f64x2.mul (local.get $xs)
                      (v128.load
                        (i32.add (local.get $delta)
                          (i32.shl (i32.add (i32.mul (local.get $r) (local.get $outW)) (local.get $u))
                            (i32.const 3)))))))
                (local.set $r (i32.add (local.get $r) (i32.const 1)))
                (br $rs)))
            (local.set $p
              (i32.add (local.get $gW)
                (i32.shl (i32.add (i32.mul (local.get $k) (local.get $outW)) (local.get $u)) (i32.const 3))))
            (v128.store (local.get $p) (f64x2.add (v128.load (local.get $p)) (local.get $s0)))
            (local.set $u (i32.add (local.get $u) (i32.const 2)))
            (br $pairs)))
        (if (i32.lt_s (local.get $u) (local.get $outW))
          (then
            (local.set $s (f64.const 0))
            (local.set $r (i32.const 0))
            (block $endr
              (loop $rs
                (br_if $endr (i32.ge_s (local.get $r) (local.get $m)))
                (local.set $s
                  (f64.add (local.get $s)
                    (f64.mul
                      (f64.load
                        (i32.add (local.get $x)
                          (i32.shl (i32.add (i32.mul (local.get $r) (local.get $inW)) (local.get $k)) (i32.const 3))))
                      (f64.load
                        (i32.add (local.get $delta)
                          (i32.shl (i32.add (i32.mul (local.get $r) (local.get $outW)) (local.get $u))
                            (i32.const 3)))))))
                (local.set $r (i32.add (local.get $r) (i32.const 1)))
                (br $rs)))
            (local.set $p
              (i32.add (local.get $gW)
                (i32.shl (i32.add (i32.mul (local.get $k) (local.get $outW)) (local.get $u)) (i32.const 3))))
            (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (local.get $s)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $ks))))

  ;; x[i] = max(x[i], 0) for the n doubles at x (as Math.max: -0 becomes 0).
  (func (export "relu") (param $x i32) (param $n i32)
    (local $i i32) (local $p i32)
    (block $end2
      (loop $pairs
        (br_if $end2 (i32.gt_s (i32.add (local.get $i) (i32.const 2)) (local.get $n)))
        (local.set $p (i32.add (local.get $x) (i32.shl (local.get $i) (i32.const 3))))
        (v128.store (local.get $p) (f64x2.max (v128.load (local.get $p)) (v128.const f64x2 0 0)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $pairs)))
    (if (i32.lt_s (local.get $i) (local.get $n))
      (then
        (local.set $p (i32.add (local.get $x) (i32.shl (local.get $i) (i32.const 3))))
        (f64.store (local.get $p) (f64.max (f64.load (local.get $p)) (f64.const 0))))))

    ;; First layer's gradients from the batch's entries (as in sparseRows): per row, gb0 += delta0 row,
  ;; then for each entry g0[at .. at+h) += val * delta0 row.
  (func (export "sparseAccumulate")
    (param $at i32) (param $val i32) (param $count i32) (param $d i32) (param $m i32) (param $delta0 i32)
    (param $h i32) (param $g0 i32) (param $gb0 i32)
    (local $r i32) (local $e i32) (local $n i32) (local $u i32) (local $o i32) (local $g i32) (local $p i32)
    (local $v f64) (local $vs v128)
    (block $end
      (loop $rows
        (br_if $end (i32.ge_s (local.get $r) (local.get $m)))
        (local.set $o (i32.add (local.get $delta0) (i32.shl (i32.mul (local.get $r) (local.get $h)) (i32.const 3))))
        (local.set $u (i32.const 0))
        (block $endu
          (loop $us
            (br_if $endu (i32.ge_s (local.get $u) (local.get $h)))
            (local.set $p (i32.add (local.get $gb0) (i32.shl (local.get $u) (i32.const 3))))
            (f64.store (local.get $p)
              (f64.add (f64.load (local.get $p))
                (f64.load (i32.add (local.get $o) (i32.shl (local.get $u) (i32.const 3))))))
            (local.set $u (i32.add (local.get $u) (i32.const 1)))
            (br $us)))
        (local.set $n (i32.load (i32.add (local.get $count) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $e (i32.const 0))
        (block $ende
          (loop $es
            (br_if $ende (i32.ge_s (local.get $e) (local.get $n)))
            (local.set $p (i32.add (i32.mul (local.get $r) (local.get $d)) (local.get $e)))
            (local.set $v (f64.load (i32.add (local.get $val) (i32.shl (local.get $p) (i32.const 3)))))
            (local.set $vs (f64x2.splat (local.get $v)))
            (local.set $g
              (i32.add (local.get $g0)
                (i32.shl (i32.load (i32.add (local.get $at) (i32.shl (local.get $p) (i32.const 2)))) (i32.const 3))))
            (local.set $u (i32.const 0))
            (block $endpairs
              (loop $pairs
                (br_if $endpairs (i32.gt_s (i32.add (local.get $u) (i32.const 2)) (local.get $h)))
                (local.set $p (i32.add (local.get $g) (i32.shl (local.get $u) (i32.const 3))))
                (v128.store (local.get $p)
                  (f64x2.add (v128.load (local.get $p))
                    (f64x2.mul (local.get $vs)
                      (v128.load (i32.add (local.get $o) (i32.shl (local.get $u) (i32.const 3)))))))
                (local.set $u (i32.add (local.get $u) (i32.const 2)))
                (br $pairs)))
            (if (i32.lt_s (local.get $u) (local.get $h))
              (then
                (local.set $p (i32.add (local.get $g) (i32.shl (local.get $u) (i32.const 3))))
                (f64.store (local.get $p)
                  (f64.add (f64.load (local.get $p))
                    (f64.mul (local.get $v)
                      (f64.load (i32.add (local.get $o) (i32.shl (local.get $u) (i32.const 3)))))))))
            (local.set $e (i32.add (local.get $e) (i32.const 1)))
            (br $es)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))
)
