# SPDX-License-Identifier: BSL-1.0
# bench/memory/plot.gp: peak RSS against the budget (the promise: budget + 64 MiB) and the time
# of the automatic assignment relative to the fastest hand split (memory-summary.csv), per graph.
#   gnuplot -e "csv='bench/results/memory.csv'; outdir='bench/results'" bench/memory/plot.gp
set datafile separator ","
set terminal pngcairo size 1200,500
set output outdir."/memory.png"
set multiplot layout 1,2
set title "peak RSS of a run (automatic assignment)"
set xlabel "budget (MiB)"
set ylabel "peak RSS (MiB)"
set logscale xy 2
set key top left
plot csv using (strcol(4) eq "auto" && $6 == 0 && strcol(1) eq "sort" ? $2 : 1/0):8 with linespoints title "sort chain", \
     csv using (strcol(4) eq "auto" && $6 == 0 && strcol(1) eq "diamond" ? $2 : 1/0):8 with linespoints title "Diamond", \
     csv using (strcol(4) eq "auto" && $6 == 0 && strcol(1) eq "tfp" ? $2 : 1/0):8 with linespoints title "TFP DAG", \
     [32:2048] x + 64 with lines dashtype 2 title "budget + 64 MiB"
unset logscale
set logscale x 2
set title "automatic / fastest hand split, mean time"
set ylabel "time ratio"
set yrange [0.5:1.5]
summary = outdir."/memory-summary.csv"
plot summary using (strcol(1) eq "sort" ? $2 : 1/0):7 with linespoints title "sort chain", \
     summary using (strcol(1) eq "diamond" ? $2 : 1/0):7 with linespoints title "Diamond", \
     summary using (strcol(1) eq "tfp" ? $2 : 1/0):7 with linespoints title "TFP DAG", \
     [32:2048] 1.05 with lines dashtype 2 title "goal: 1.05"
unset multiplot
