# gnuplot speedups.gp -> speedups.png: PPQ speedup over the competitor of each experiment
set terminal pngcairo size 900,450
set output 'speedups.png'
set style data histogram
set style fill solid 0.8
set boxwidth 0.7
set logscale y
set ylabel 'speedup of the PPQ (log scale)'
set title 'emflow PPQ vs stxxl::sorter / stxxl::priority_queue (2 cores, shared machine, 256 MiB)'
set xtics rotate by -20
set grid y
plot 'speedups.dat' using 5:xtic(1) title 'PPQ speedup', 1 with lines lw 2 title 'break-even'
