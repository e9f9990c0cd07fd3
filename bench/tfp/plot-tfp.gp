# SPDX-License-Identifier: BSL-1.0
# Plots bench/results/tfp_overlap.csv and tfp_dag_limits.csv into tfp.png (see run-tfp).
if (!exists("dir")) dir = "bench/results"
set terminal pngcairo size 1200,480 font ",10"
set output dir."/tfp.png"
set datafile separator ","
set multiplot layout 1,2
set title "Producer pipeline feeding the PPQ (bulk\\_push\\_from), 8M items"
set xlabel "hash rounds per produced item"
set ylabel "overlapped / (production + insertion)"
set style data linespoints
set logscale x 2
set key top left
set yrange [0.4:1.1]
plot dir."/tfp_overlap.csv" every ::1 using 3:($2==64 ? $8 : 1/0) title "64 MiB queue (spills to disk)" pt 7, \
     "" every ::1 using 3:($2==256 ? $8 : 1/0) title "256 MiB queue (in RAM)" pt 5, \
     "" every ::1 using 3:($2==64 ? $9 : 1/0) title "production share (a floor), 64 MiB" dt 2 pt 6, \
     "" every ::1 using 3:($2==256 ? $9 : 1/0) title "production share (a floor), 256 MiB" dt 2 pt 4, \
     0.75 title "goal" lw 2 dt 3
unset logscale x
set yrange [*:*]
set ylabel "seconds"
set title "Time-forward DAG evaluation: limit window"
set style data linespoints
set logscale x 2
set xlabel "fixed window width (node ids)"
set key top right
stats dir."/tfp_dag_limits.csv" every ::1::1 using 3 nooutput name "adaptive"
plot dir."/tfp_dag_limits.csv" every ::2 using 2:3 title "fixed window" pt 7, \
     adaptive_max title "adaptive window (no tuning)" with lines lw 2
unset multiplot
