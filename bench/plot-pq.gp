# SPDX-License-Identifier: BSL-1.0
# bench/plot-pq.gp: the PPQ paper's Figure 4 from bench/run-pq's data files. Called by run-pq:
#   gnuplot -e "datadir='...'; out='x.png'; term='png'; iolimit=131.0; machine='...'; memory='1GiB'"
# datadir holds <experiment>-<impl>.dat files with "x  M_items_per_s" lines (x: GiB of items, or
# the bulk size for bulk-rewrite).

if (term eq 'svg') {
    set terminal svg size 1200,900 dynamic font 'Helvetica,12'
} else {
    set terminal pngcairo size 1200,900 font 'Helvetica,11'
}
set output out

impl_of(f, exp) = f[strlen(datadir) + strlen(exp) + 3 : strlen(f) - 4]
style_of(name) = name eq 'ppq' ? 1 : name eq 'stxxl_pq' ? 2 : name eq 'buffer_tree_pq' ? 4 : 3
files_of(exp) = system('ls ' . datadir . '/' . exp . '-*.dat 2>/dev/null')

set style line 1 lc rgb '#d62728' lw 2 pt 2 ps 1.3
set style line 2 lc rgb '#1f77b4' lw 2 pt 6 ps 1.3
set style line 3 lc rgb '#2ca02c' lw 2 pt 8 ps 1.3
set style line 4 lc rgb '#9467bd' lw 2 pt 4 ps 1.3
set style line 9 lc rgb '#555555' lw 1.5 dt 2

set grid
set key top right box opaque
set logscale x 2
set ylabel 'throughput [M items/s]'
set logscale y 10  # the I/O limit can be far above: keep the ratios readable
set format y '%g'
if (iolimit > 0) { set yrange [*:iolimit * 5] }  # room for the key above the I/O limit
set format x '%g'

set multiplot layout 2,2 title sprintf('priority-queue experiments (Bingmann, Keh, Sanders, SEA 2015, sec. 4), memory %s; %s', memory, machine) noenhanced

do for [exp in 'push-rand-pop push-asc-pop asc-rbulk-rewrite'] {
    set title exp noenhanced
    set xlabel 'item volume [GiB]'
    files = files_of(exp)
    if (strlen(files) > 0) {
        plot for [f in files] f using 1:2 with linespoints ls style_of(impl_of(f, exp)) title impl_of(f, exp) noenhanced, \
             (iolimit > 0 ? iolimit : 1/0) with lines ls 9 title 'I/O limit'
    } else {
        unset key; set label 1 'no data' at graph 0.45, 0.5; plot [1:10] [1:10] 2 lt -2 notitle; unset label 1; set key
    }
}

exp = 'bulk-rewrite'
set title 'bulk-rewrite (fixed volume)'
set xlabel 'bulk size [items]'
set logscale x 10
set format x '10^{%L}'
files = files_of(exp)
if (strlen(files) > 0) {
    plot for [f in files] f using 1:2 with linespoints ls style_of(impl_of(f, exp)) title impl_of(f, exp) noenhanced, \
         (iolimit > 0 ? iolimit : 1/0) with lines ls 9 title 'I/O limit'
} else {
    unset key; set label 1 'no data' at graph 0.45, 0.5; plot [1:10] [1:10] 2 lt -2 notitle
}
unset multiplot
