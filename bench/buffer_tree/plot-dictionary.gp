# SPDX-License-Identifier: BSL-1.0
# Plots bench/results/buffer-tree-dictionary.csv (see README.md) into
# buffer-tree-dictionary.png: left, the mixed phase's operations per second of the buffer tree
# and of the same operations done by sorting (one batch, 4 and 16 batches), at each multiple of the budget; right, their
# disk blocks per operation against Arge's bound (1/B) log_m(n/B).
if (!exists("dir")) dir = "bench/results"
set terminal pngcairo size 1200,480 font ",10"
set output dir."/buffer-tree-dictionary.png"
set datafile separator ","
set key top left noenhanced box opaque
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.7 border -1
set boxwidth 0.9
sel(m) = sprintf("< awk -F, '$1 == \"%s\"' %s/buffer-tree-dictionary.csv", m, dir)
set multiplot layout 1,2 title "batched dictionary: n inserts, then n mixed operations (1/2 look-ups, 1/4 inserts, 1/4 erases)"
set title "mixed phase throughput"
set xlabel "pairs / budget"
set ylabel "M operations per second"
set yrange [0:*]
set offsets 0, 0, graph 0.35, 0
plot sel("buffer_tree") using 7:xtic(2) title "buffer tree", \
     sel("sort_merge") using 7 title "sort the n operations, merge with the sorted run", \
     sel("sort_merge_4_batches") using 7 title "the same in 4 batches", \
     sel("sort_merge_16_batches") using 7 title "the same in 16 batches"
set title "mixed phase disk volume per operation"
set ylabel "64 KiB blocks moved per operation"
plot sel("buffer_tree") using 9:xtic(2) title "buffer tree", \
     sel("sort_merge") using 9 title "sort + merge", \
     sel("sort_merge_4_batches") using 9 title "sort + merge, 4 batches", \
     sel("sort_merge_16_batches") using 9 title "sort + merge, 16 batches", \
     sel("buffer_tree") using 10 title "bound (1/B) log_m(n/B)"
unset multiplot
