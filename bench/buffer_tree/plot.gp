# SPDX-License-Identifier: BSL-1.0
# Plots bench/results/buffer-tree-sort.csv (see README.md) into buffer-tree-sort.png: left, the
# paper's Figure 3 (seconds per sort against the input size, three sorters); right, its
# Figure 4 with time (fan-out sweep: seconds and block pushes against b).
if (!exists("dir")) dir = "bench/results"
set terminal pngcairo size 1200,480 font ",10"
set output dir."/buffer-tree-sort.png"
set datafile separator ","
set key top left noenhanced
set multiplot layout 1,2
set title "sorting random 8-byte keys, 16 MiB budget"
set xlabel "input (MiB)"
set ylabel "seconds"
set logscale x 2
sel(s) = sprintf("< awk -F, '$1 == \"size\" && $2 == \"%s\"' %s/buffer-tree-sort.csv", s, dir)
plot sel("tree_sort") using ($3*8/1048576):6 with linespoints title "tree sort (b = m/8)", \
     sel("sort_node") using ($3*8/1048576):6 with linespoints title "emflow sort node", \
     sel("stxxl_sorter") using ($3*8/1048576):6 with linespoints title "stxxl::sorter"
set title "tree sort fan-out sweep (a = b/4), 4x the budget"
set xlabel "b (m = 256 blocks of 64 KiB)"
set ylabel "seconds"
set y2label "block pushes"
set y2tics
set ytics nomirror
fan = sprintf("< awk -F, '$1 == \"fanout\"' %s/buffer-tree-sort.csv", dir)
plot fan using 5:6 with linespoints title "seconds", fan using 5:10 axes x1y2 with linespoints title "block pushes"
unset multiplot
