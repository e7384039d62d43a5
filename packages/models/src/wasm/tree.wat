;; The split search's inner loops (see tree-builder.ts) on WebAssembly: histograms of a node's rows per
;; bin and class, the scan of a feature's Gini splits, and the partition of a node's rows. The same
;; additions in the same order as the JavaScript they replace, so trees are the same to the bit.
;; WebAssembly runs at full speed from a process's first fit: JavaScript loops spend the first one
;; waiting for V8 to optimise them.
;; Pointers are byte offsets into the imported memory. `bins` points at one feature's column of bin
;; codes (one byte per training row); idx, yv and wv are a node's rows, classes and weights (i32, i32,
;; f64); hc and hw are the histogram (rows per bin, i32; weight per bin and class, f64, bin-major).
;; Regenerate tree-wasm.ts after a change: node scripts/build-wasm.mjs
(module
  (import "env" "memory" (memory 1))

  ;; The rows of positive weight rw[i] (i < n): their indices, weights and classes into idx, wv and yv;
  ;; each class's weight into cls[0..K) and the total into cls[K]. Returns how many.
  (func (export "collect")
    (param $rw i32) (param $y i32) (param $n i32) (param $idx i32) (param $wv i32) (param $yv i32)
    (param $K i32) (param $cls i32) (result i32)
    (local $i i32) (local $m i32) (local $w f64) (local $c i32) (local $p i32) (local $total f64)
    (local.set $i (i32.const 0))
    (block $zeroed (loop $zero
      (br_if $zeroed (i32.ge_s (local.get $i) (local.get $K)))
      (f64.store (i32.add (local.get $cls) (i32.shl (local.get $i) (i32.const 3))) (f64.const 0))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $zero)))
    (local.set $i (i32.const 0))
    (block $done (loop $row
      (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
      (local.set $w (f64.load (i32.add (local.get $rw) (i32.shl (local.get $i) (i32.const 3)))))
      (if (f64.gt (local.get $w) (f64.const 0))
        (then
          (local.set $c (i32.load (i32.add (local.get $y) (i32.shl (local.get $i) (i32.const 2)))))
          (i32.store (i32.add (local.get $idx) (i32.shl (local.get $m) (i32.const 2))) (local.get $i))
          (f64.store (i32.add (local.get $wv) (i32.shl (local.get $m) (i32.const 3))) (local.get $w))
          (i32.store (i32.add (local.get $yv) (i32.shl (local.get $m) (i32.const 2))) (local.get $c))
          (local.set $p (i32.add (local.get $cls) (i32.shl (local.get $c) (i32.const 3))))
          (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (local.get $w)))
          (local.set $total (f64.add (local.get $total) (local.get $w)))
          (local.set $m (i32.add (local.get $m) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $row)))
    (f64.store (i32.add (local.get $cls) (i32.shl (local.get $K) (i32.const 3))) (local.get $total))
    (local.get $m))

  ;; Add rows start..end-1 to the histogram (dense mode: every bin is scanned afterwards).
  (func $addRows (export "addRows")
    (param $bins i32) (param $idx i32) (param $yv i32) (param $wv i32) (param $start i32) (param $end i32)
    (param $K i32) (param $hc i32) (param $hw i32)
    (local $i i32) (local $b i32) (local $p i32)
    (local.set $i (local.get $start))
    (block $done (loop $row
      (br_if $done (i32.ge_s (local.get $i) (local.get $end)))
      (local.set $b (i32.load8_u (i32.add (local.get $bins)
        (i32.load (i32.add (local.get $idx) (i32.shl (local.get $i) (i32.const 2)))))))
      (local.set $p (i32.add (local.get $hc) (i32.shl (local.get $b) (i32.const 2))))
      (i32.store (local.get $p) (i32.add (i32.load (local.get $p)) (i32.const 1)))
      (local.set $p (i32.add (local.get $hw) (i32.shl
        (i32.add (i32.mul (local.get $b) (local.get $K))
          (i32.load (i32.add (local.get $yv) (i32.shl (local.get $i) (i32.const 2)))))
        (i32.const 3))))
      (f64.store (local.get $p) (f64.add (f64.load (local.get $p))
        (f64.load (i32.add (local.get $wv) (i32.shl (local.get $i) (i32.const 3))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $row))))

  ;; Add rows start..end-1 to the histograms of all d features at once (dense mode): feature f's column
  ;; of bin codes at bins + f * n, its histogram at hc + f * hcStride and hw + f * hwStride (bytes). Each
  ;; row's index, class and weight are read once; every bin and class gets the same additions in the same
  ;; order as addRows gives it feature by feature.
  (func $addRowsAll (export "addRowsAll")
    (param $bins i32) (param $n i32) (param $d i32) (param $idx i32) (param $yv i32) (param $wv i32)
    (param $start i32) (param $end i32) (param $K i32) (param $hc i32) (param $hw i32)
    (param $hcStride i32) (param $hwStride i32)
    (local $i i32) (local $f i32) (local $col i32) (local $h i32) (local $g i32) (local $w f64)
    (local $b i32) (local $p i32)
    (local.set $i (local.get $start))
    (block $done (loop $row
      (br_if $done (i32.ge_s (local.get $i) (local.get $end)))
      (local.set $col (i32.add (local.get $bins)
        (i32.load (i32.add (local.get $idx) (i32.shl (local.get $i) (i32.const 2))))))
      (local.set $h (local.get $hc))
      (local.set $g (i32.add (local.get $hw) (i32.shl
        (i32.load (i32.add (local.get $yv) (i32.shl (local.get $i) (i32.const 2))))
        (i32.const 3))))
      (local.set $w (f64.load (i32.add (local.get $wv) (i32.shl (local.get $i) (i32.const 3)))))
      (local.set $f (i32.const 0))
      (block $features (loop $feature
        (br_if $features (i32.ge_s (local.get $f) (local.get $d)))
        (local.set $b (i32.load8_u (local.get $col)))
        (local.set $p (i32.add (local.get $h) (i32.shl (local.get $b) (i32.const 2))))
        (i32.store (local.get $p) (i32.add (i32.load (local.get $p)) (i32.const 1)))
        (local.set $p (i32.add (local.get $g) (i32.shl (i32.mul (local.get $b) (local.get $K)) (i32.const 3))))
        (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (local.get $w)))
        (local.set $col (i32.add (local.get $col) (local.get $n)))
        (local.set $h (i32.add (local.get $h) (local.get $hcStride)))
        (local.set $g (i32.add (local.get $g) (local.get $hwStride)))
        (local.set $f (i32.add (local.get $f) (i32.const 1)))
        (br $feature)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $row))))

  ;; The bins below nb holding rows, in increasing order, into touched; returns how many.
  (func $occupied (export "occupied") (param $hc i32) (param $nb i32) (param $touched i32) (result i32)
    (local $b i32) (local $occ i32)
    (block $done (loop $bin
      (br_if $done (i32.ge_s (local.get $b) (local.get $nb)))
      (if (i32.gt_s (i32.load (i32.add (local.get $hc) (i32.shl (local.get $b) (i32.const 2)))) (i32.const 0))
        (then
          (i32.store (i32.add (local.get $touched) (i32.shl (local.get $occ) (i32.const 2))) (local.get $b))
          (local.set $occ (i32.add (local.get $occ) (i32.const 1)))))
      (local.set $b (i32.add (local.get $b) (i32.const 1)))
      (br $bin)))
    (local.get $occ))

  ;; Histogram of rows start..end-1 when the node has fewer rows than bins: the occupied bins listed in
  ;; touched as first met, then sorted by insertion (they are few). Returns their count.
  (func $sparse (export "sparse")
    (param $bins i32) (param $idx i32) (param $yv i32) (param $wv i32) (param $start i32) (param $end i32)
    (param $K i32) (param $hc i32) (param $hw i32) (param $touched i32) (result i32)
    (local $i i32) (local $b i32) (local $p i32) (local $c i32) (local $occ i32) (local $j i32) (local $v i32)
    (local.set $i (local.get $start))
    (block $done (loop $row
      (br_if $done (i32.ge_s (local.get $i) (local.get $end)))
      (local.set $b (i32.load8_u (i32.add (local.get $bins)
        (i32.load (i32.add (local.get $idx) (i32.shl (local.get $i) (i32.const 2)))))))
      (local.set $p (i32.add (local.get $hc) (i32.shl (local.get $b) (i32.const 2))))
      (local.set $c (i32.load (local.get $p)))
      (i32.store (local.get $p) (i32.add (local.get $c) (i32.const 1)))
      (if (i32.eqz (local.get $c))
        (then
          (i32.store (i32.add (local.get $touched) (i32.shl (local.get $occ) (i32.const 2))) (local.get $b))
          (local.set $occ (i32.add (local.get $occ) (i32.const 1)))))
      (local.set $p (i32.add (local.get $hw) (i32.shl
        (i32.add (i32.mul (local.get $b) (local.get $K))
          (i32.load (i32.add (local.get $yv) (i32.shl (local.get $i) (i32.const 2)))))
        (i32.const 3))))
      (f64.store (local.get $p) (f64.add (f64.load (local.get $p))
        (f64.load (i32.add (local.get $wv) (i32.shl (local.get $i) (i32.const 3))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $row)))
    (local.set $i (i32.const 1))
    (block $sorted (loop $insert
      (br_if $sorted (i32.ge_s (local.get $i) (local.get $occ)))
      (local.set $v (i32.load (i32.add (local.get $touched) (i32.shl (local.get $i) (i32.const 2)))))
      (local.set $j (i32.sub (local.get $i) (i32.const 1)))
      (block $placed (loop $shift
        (br_if $placed (i32.lt_s (local.get $j) (i32.const 0)))
        (local.set $c (i32.load (i32.add (local.get $touched) (i32.shl (local.get $j) (i32.const 2)))))
        (br_if $placed (i32.le_s (local.get $c) (local.get $v)))
        (i32.store (i32.add (local.get $touched) (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 2)))
          (local.get $c))
        (local.set $j (i32.sub (local.get $j) (i32.const 1)))
        (br $shift)))
      (i32.store (i32.add (local.get $touched) (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 2)))
        (local.get $v))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $insert)))
    (local.get $occ))

  ;; Zero the histogram's occupied bins.
  (func $clear (export "clear") (param $touched i32) (param $occ i32) (param $K i32) (param $hc i32) (param $hw i32)
    (local $s i32) (local $b i32) (local $k i32) (local $row i32)
    (block $done (loop $bin
      (br_if $done (i32.ge_s (local.get $s) (local.get $occ)))
      (local.set $b (i32.load (i32.add (local.get $touched) (i32.shl (local.get $s) (i32.const 2)))))
      (i32.store (i32.add (local.get $hc) (i32.shl (local.get $b) (i32.const 2))) (i32.const 0))
      (local.set $row (i32.add (local.get $hw) (i32.shl (i32.mul (local.get $b) (local.get $K)) (i32.const 3))))
      (local.set $k (i32.const 0))
      (block $cleared (loop $class
        (br_if $cleared (i32.ge_s (local.get $k) (local.get $K)))
        (f64.store (i32.add (local.get $row) (i32.shl (local.get $k) (i32.const 3))) (f64.const 0))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $class)))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br $bin))))

  ;; Scan the Gini splits between consecutive occupied bins (score: the sum of squared class weights
  ;; over the weight, per side; larger is better). A split better than best[0] updates best[0] and copies
  ;; its left class weights to cum[K..2K); returns the position in touched of the last bin going left of
  ;; the best such split, or -1 when none beat best[0]. parent holds the node's class weights, W their sum.
  (func $scanGini (export "scanGini")
    (param $touched i32) (param $occ i32) (param $hc i32) (param $hw i32) (param $K i32) (param $parent i32)
    (param $W f64) (param $count i32) (param $minLeaf i32) (param $cum i32) (param $best i32) (result i32)
    (local $found i32) (local $s i32) (local $b i32) (local $cl i32) (local $wl f64) (local $wr f64)
    (local $k i32) (local $v f64) (local $p i32) (local $row i32) (local $sl f64) (local $sr f64)
    (local $a f64) (local $c f64) (local $score f64)
    (block $zeroed (loop $zero
      (br_if $zeroed (i32.ge_s (local.get $k) (local.get $K)))
      (f64.store (i32.add (local.get $cum) (i32.shl (local.get $k) (i32.const 3))) (f64.const 0))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $zero)))
    (local.set $found (i32.const -1))
    (block $done (loop $split
      (br_if $done (i32.ge_s (local.get $s) (i32.sub (local.get $occ) (i32.const 1))))
      (local.set $b (i32.load (i32.add (local.get $touched) (i32.shl (local.get $s) (i32.const 2)))))
      (local.set $cl (i32.add (local.get $cl)
        (i32.load (i32.add (local.get $hc) (i32.shl (local.get $b) (i32.const 2))))))
      (local.set $row (i32.add (local.get $hw) (i32.shl (i32.mul (local.get $b) (local.get $K)) (i32.const 3))))
      (local.set $k (i32.const 0))
      (block $added (loop $class
        (br_if $added (i32.ge_s (local.get $k) (local.get $K)))
        (local.set $v (f64.load (i32.add (local.get $row) (i32.shl (local.get $k) (i32.const 3)))))
        (local.set $p (i32.add (local.get $cum) (i32.shl (local.get $k) (i32.const 3))))
        (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (local.get $v)))
        (local.set $wl (f64.add (local.get $wl) (local.get $v)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $class)))
      (block $next
        (br_if $next (i32.lt_s (local.get $cl) (local.get $minLeaf)))
        (br_if $done (i32.lt_s (i32.sub (local.get $count) (local.get $cl)) (local.get $minLeaf)))
        (local.set $wr (f64.sub (local.get $W) (local.get $wl)))
        (br_if $next (i32.eqz (i32.and
          (f64.gt (local.get $wl) (f64.const 0))
          (f64.gt (local.get $wr) (f64.const 0)))))
        (local.set $sl (f64.const 0))
        (local.set $sr (f64.const 0))
        (local.set $k (i32.const 0))
        (block $summed (loop $square
          (br_if $summed (i32.ge_s (local.get $k) (local.get $K)))
          (local.set $a (f64.load (i32.add (local.get $cum) (i32.shl (local.get $k) (i32.const 3)))))
          (local.set $c (f64.sub
            (f64.load (i32.add (local.get $parent) (i32.shl (local.get $k) (i32.const 3))))
            (local.get $a)))
          (local.set $sl (f64.add (local.get $sl) (f64.mul (local.get $a) (local.get $a))))
          (local.set $sr (f64.add (local.get $sr) (f64.mul (local.get $c) (local.get $c))))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $square)))
        (local.set $score (f64.add
          (f64.div (local.get $sl) (local.get $wl))
          (f64.div (local.get $sr) (local.get $wr))))
        (br_if $next (i32.eqz (f64.gt (local.get $score) (f64.load (local.get $best)))))
        (f64.store (local.get $best) (local.get $score))
        (local.set $k (i32.const 0))
        (block $kept (loop $copy
          (br_if $kept (i32.ge_s (local.get $k) (local.get $K)))
          (local.set $p (i32.add (local.get $cum) (i32.shl (local.get $k) (i32.const 3))))
          (f64.store (i32.add (local.get $p) (i32.shl (local.get $K) (i32.const 3))) (f64.load (local.get $p)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $copy)))
        (local.set $found (local.get $s)))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br $split)))
    (local.get $found))

  ;; Every feature of a node searched in the given order, as one call: per feature its histogram (with
  ;; `all`, the node's rows are first added to every feature's at once, see addRowsAll; else by `sparse`
  ;; when the node has fewer rows than the feature has bins, by addRows otherwise), the scan of its Gini splits when
  ;; it has two occupied bins or more, then the histogram cleared: the calls the JavaScript loop made one
  ;; by one, in its order. Used when every feature is examined (maxFeatures >= d), so the order does not
  ;; depend on what the scans find. order holds the d features (i32), nBins their bin counts (i32);
  ;; feature f's column of bin codes is at bins + f * n. The best split's feature, its last bin going left
  ;; and the next occupied bin go to out[0..3) (i32), its left class weights to left[0..K) (f64). Returns
  ;; the best split's feature, or -1 when no split beat best[0].
  (func (export "searchFeatures")
    (param $order i32) (param $d i32) (param $nBins i32) (param $bins i32) (param $n i32)
    (param $idx i32) (param $yv i32) (param $wv i32) (param $start i32) (param $end i32) (param $K i32)
    (param $all i32) (param $hcAll i32) (param $hwAll i32) (param $hcStride i32) (param $hwStride i32)
    (param $hc i32) (param $hw i32) (param $touched i32) (param $parent i32) (param $W f64)
    (param $minLeaf i32) (param $cum i32) (param $best i32) (param $out i32) (param $left i32)
    (result i32)
    (local $t i32) (local $f i32) (local $nb i32) (local $col i32) (local $h i32) (local $g i32)
    (local $occ i32) (local $s i32) (local $found i32) (local $count i32) (local $k i32) (local $c i32)
    (local $e i32)
    (local.set $found (i32.const -1))
    (local.set $count (i32.sub (local.get $end) (local.get $start)))
    ;; The rows go to addRowsAll 1,024 at a time, in order (the same additions in the same order): V8
    ;; first runs a function from quickly made code and compiles it again, optimised, once it has run a
    ;; while; a call already running keeps the first code, so one call over the root's rows ran most of a
    ;; process's first fit there. Later chunks run the optimised code once it is ready.
    (if (local.get $all)
      (then
        (local.set $c (local.get $start))
        (block $added (loop $chunk
          (br_if $added (i32.ge_s (local.get $c) (local.get $end)))
          (local.set $e (select (i32.add (local.get $c) (i32.const 1024)) (local.get $end)
            (i32.lt_s (i32.add (local.get $c) (i32.const 1024)) (local.get $end))))
          (call $addRowsAll (local.get $bins) (local.get $n) (local.get $d) (local.get $idx) (local.get $yv)
            (local.get $wv) (local.get $c) (local.get $e) (local.get $K) (local.get $hcAll)
            (local.get $hwAll) (local.get $hcStride) (local.get $hwStride))
          (local.set $c (local.get $e))
          (br $chunk)))))
    (block $done (loop $feature
      (br_if $done (i32.ge_s (local.get $t) (local.get $d)))
      (local.set $f (i32.load (i32.add (local.get $order) (i32.shl (local.get $t) (i32.const 2)))))
      (local.set $nb (i32.load (i32.add (local.get $nBins) (i32.shl (local.get $f) (i32.const 2)))))
      (local.set $col (i32.add (local.get $bins) (i32.mul (local.get $f) (local.get $n))))
      (if (local.get $all)
        (then
          (local.set $h (i32.add (local.get $hcAll) (i32.mul (local.get $f) (local.get $hcStride))))
          (local.set $g (i32.add (local.get $hwAll) (i32.mul (local.get $f) (local.get $hwStride))))
          (local.set $occ (call $occupied (local.get $h) (local.get $nb) (local.get $touched))))
        (else
          (local.set $h (local.get $hc))
          (local.set $g (local.get $hw))
          (if (i32.lt_s (local.get $count) (local.get $nb))
            (then
              (local.set $occ (call $sparse (local.get $col) (local.get $idx) (local.get $yv) (local.get $wv)
                (local.get $start) (local.get $end) (local.get $K) (local.get $hc) (local.get $hw)
                (local.get $touched))))
            (else
              (call $addRows (local.get $col) (local.get $idx) (local.get $yv) (local.get $wv)
                (local.get $start) (local.get $end) (local.get $K) (local.get $hc) (local.get $hw))
              (local.set $occ (call $occupied (local.get $hc) (local.get $nb) (local.get $touched)))))))
      (if (i32.gt_s (local.get $occ) (i32.const 1))
        (then
          (local.set $s (call $scanGini (local.get $touched) (local.get $occ) (local.get $h) (local.get $g)
            (local.get $K) (local.get $parent) (local.get $W) (local.get $count) (local.get $minLeaf)
            (local.get $cum) (local.get $best)))
          (if (i32.ge_s (local.get $s) (i32.const 0))
            (then
              (local.set $found (local.get $f))
              (i32.store (local.get $out) (local.get $f))
              (i32.store offset=4 (local.get $out)
                (i32.load (i32.add (local.get $touched) (i32.shl (local.get $s) (i32.const 2)))))
              (i32.store offset=8 (local.get $out)
                (i32.load (i32.add (local.get $touched) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2)))))
              (local.set $k (i32.const 0))
              (block $kept (loop $copy
                (br_if $kept (i32.ge_s (local.get $k) (local.get $K)))
                (f64.store (i32.add (local.get $left) (i32.shl (local.get $k) (i32.const 3)))
                  (f64.load (i32.add (local.get $cum) (i32.shl (i32.add (local.get $K) (local.get $k)) (i32.const 3)))))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $copy)))))))
      (call $clear (local.get $touched) (local.get $occ) (local.get $K) (local.get $h) (local.get $g))
      (local.set $t (i32.add (local.get $t) (i32.const 1)))
      (br $feature)))
    (local.get $found))

  ;; Move the rows start..end-1 with bin <= `bin` to the front, their weights and classes alongside;
  ;; returns the boundary.
  (func (export "partition")
    (param $bins i32) (param $idx i32) (param $wv i32) (param $yv i32) (param $start i32) (param $end i32)
    (param $bin i32) (result i32)
    (local $i i32) (local $j i32) (local $pi i32) (local $pj i32) (local $t i32) (local $tw f64)
    (local.set $i (local.get $start))
    (local.set $j (i32.sub (local.get $end) (i32.const 1)))
    (block $done (loop $swap
      (block $left (loop $scanLeft
        (br_if $left (i32.gt_s (local.get $i) (local.get $j)))
        (br_if $left (i32.gt_u
          (i32.load8_u (i32.add (local.get $bins)
            (i32.load (i32.add (local.get $idx) (i32.shl (local.get $i) (i32.const 2))))))
          (local.get $bin)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $scanLeft)))
      (block $right (loop $scanRight
        (br_if $right (i32.gt_s (local.get $i) (local.get $j)))
        (br_if $right (i32.le_u
          (i32.load8_u (i32.add (local.get $bins)
            (i32.load (i32.add (local.get $idx) (i32.shl (local.get $j) (i32.const 2))))))
          (local.get $bin)))
        (local.set $j (i32.sub (local.get $j) (i32.const 1)))
        (br $scanRight)))
      (br_if $done (i32.ge_s (local.get $i) (local.get $j)))
      (local.set $pi (i32.add (local.get $idx) (i32.shl (local.get $i) (i32.const 2))))
      (local.set $pj (i32.add (local.get $idx) (i32.shl (local.get $j) (i32.const 2))))
      (local.set $t (i32.load (local.get $pi)))
      (i32.store (local.get $pi) (i32.load (local.get $pj)))
      (i32.store (local.get $pj) (local.get $t))
      (local.set $pi (i32.add (local.get $yv) (i32.shl (local.get $i) (i32.const 2))))
      (local.set $pj (i32.add (local.get $yv) (i32.shl (local.get $j) (i32.const 2))))
      (local.set $t (i32.load (local.get $pi)))
      (i32.store (local.get $pi) (i32.load (local.get $pj)))
      (i32.store (local.get $pj) (local.get $t))
      (local.set $pi (i32.add (local.get $wv) (i32.shl (local.get $i) (i32.const 3))))
      (local.set $pj (i32.add (local.get $wv) (i32.shl (local.get $j) (i32.const 3))))
      (local.set $tw (f64.load (local.get $pi)))
      (f64.store (local.get $pi) (f64.load (local.get $pj)))
      (f64.store (local.get $pj) (local.get $tw))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (local.set $j (i32.sub (local.get $j) (i32.const 1)))
      (br $swap)))
    (local.get $i))
)
