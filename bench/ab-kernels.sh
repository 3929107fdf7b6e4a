# ab-kernels.sh — an AB_PLAN for `scripts/gpu ab`: the kernel benches
# (bench_compact, bench_scan_sort) of the base tree and of this one,
# built with the same flags and run by turns, twice each, so that a
# change to the kernels or to what they share with the host (sc_hd.h,
# sc.h's structs) is measured against its base on the same card.
# Sourced by scripts/gpu's ab() with $top (this tree) and $carry set;
# the base is the source tree in $carry/kbase/*.tar.gz (`git archive
# REV | gzip`: only its kernels, headers and benches are built).
ab_nvcc="nvcc -O3 -gencode arch=compute_90,code=sm_90 -std=c++17"
ab_dir=$(mktemp -d /tmp/sc-abk.XXXXXX)
mkdir "$ab_dir/base"
tar -xzf "$top/$carry"/kbase/*.tar.gz -C "$ab_dir/base"
for side in base new; do
    tree=$top
    [ "$side" = base ] && tree=$ab_dir/base
    $ab_nvcc -I"$tree/lib" -I"$tree/kernels" -o "$ab_dir/compact.$side" \
        "$tree/bench/bench_compact.cu" "$tree/kernels/compact.cu" \
        "$tree/kernels/split.cu" "$tree/kernels/gen.cu" >>"$out/ab.log" 2>&1
    $ab_nvcc -I"$tree/lib" -I"$tree/kernels" -o "$ab_dir/scansort.$side" \
        "$tree/bench/bench_scan_sort.cu" "$tree/kernels/scan.cu" \
        "$tree/kernels/sort.cu" >>"$out/ab.log" 2>&1
done
for round in 1 2; do
    for side in base new; do
        for b in compact scansort; do
            echo "== round $round, $side, $b" | tee -a "$out/ab.log"
            "$ab_dir/$b.$side" 2>&1 | grep -E "scg_|cub::" | tee -a "$out/ab.log"
        done
    done
done
rm -rf "$ab_dir"
