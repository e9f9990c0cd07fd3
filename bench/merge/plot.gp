# SPDX-License-Identifier: BSL-1.0
# gnuplot -e "csv='bench/results/merge.csv'; out='bench/results/merge'" bench/merge/plot.gp
set datafile separator ","
set termoption noenhanced
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set ylabel "speedup over libstdc++'s sequential merge"
set xlabel "runs merged (k)"
set key top left
set yrange [0:*]
set title "Full multiway merges: emflow's cascade (1 thread), parallel merges (2 threads)"
do for [t in "pngcairo svg"] {
    set terminal t size 800,450 noenhanced
    set output out . (t eq "svg" ? ".svg" : ".png")
    plot "< awk -F, '$5==\"sequential\" && $3==$4' ".csv using 7:xtic(2) title "algorithm::detail::merge_sequential (1 thread)", \
         "< awk -F, '$5==\"gnu_parallel\" && $3==$4' ".csv using 7 title "__gnu_parallel::multiway_merge", \
         "< awk -F, '$5==\"ppq\" && $3==$4' ".csv using 7 title "algorithm::multiway_merge"
}
