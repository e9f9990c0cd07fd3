# SPDX-License-Identifier: BSL-1.0
# Plots bench/results/sort.csv into sort.png (see run-sort): million items sorted per second
# by each sort on each input pattern (log scale), one panel per input size.
if (!exists("dir")) dir = "bench/results"
set terminal pngcairo size 1200,480 font ",10"
set output dir."/sort.png"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "million items / s"
set logscale y
set key top left noenhanced
set multiplot layout 1,2
# one row per pattern, one column per sort (std_sort, block_quicksort, tbb_parallel_sort,
# parallel_block_quicksort)
pivot(n) = sprintf("< awk -F, '$3 == %s { v[$2] = v[$2] \" \" $7 / 1e6; if (!($2 in o)) o[$2] = ++k; p[o[$2]] = $2 } END { for (i = 1; i <= k; ++i) print p[i] v[p[i]] }' %s/sort.csv", n, dir)
do for [n in "1048576 33554432"] {
  set title sprintf("%s 8-byte items (parallel sorts: 2 threads)", n) noenhanced
  plot pivot(n) using 2:xtic(1) title "std::sort", "" using 3 title "block_quicksort", \
       "" using 4 title "tbb::parallel_sort", "" using 5 title "parallel_block_quicksort"
}
unset multiplot
