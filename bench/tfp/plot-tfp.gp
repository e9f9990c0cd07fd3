# Plots bench/results/tfp_overlap.csv and tfp_dag_limits.csv into tfp.png (see run-tfp).
if (!exists("dir")) dir = "bench/results"
set terminal pngcairo size 1200,480 font ",10"
set output dir."/tfp.png"
set datafile separator ","
set multiplot layout 1,2
set title "Producer pipeline feeding the PPQ (bulk\\_push\\_from)"
set xlabel "hash rounds per produced item"
set ylabel "seconds"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top left
set yrange [0:*]
plot dir."/tfp_overlap.csv" every ::1 using ($3+$4):xtic(2) title "production + insertion (sequential)", \
     "" every ::1 using 5 title "overlapped (small announced bulks)", \
     "" every ::1 using 6 title "overlapped (whole bulk announced)"
set yrange [*:*]
set title "Time-forward DAG evaluation: limit window"
set style data linespoints
set logscale x 2
set xlabel "fixed window width (node ids)"
set key top right
stats dir."/tfp_dag_limits.csv" every ::1::1 using 3 nooutput name "adaptive"
plot dir."/tfp_dag_limits.csv" every ::2 using 2:3 title "fixed window" pt 7, \
     adaptive_max title "adaptive window (no tuning)" with lines lw 2
unset multiplot
