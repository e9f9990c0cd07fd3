# SPDX-License-Identifier: BSL-1.0
# bench/mpi/plot.gp: the MPI benchmark's means per run (bench/run-mpi writes mpi-summary.dat:
# bench ranks Mitems/s/rank bytes/item send_wait receive_wait collective_wait, waits as shares
# of the run's time). Three panels against the number of ranks: per-rank throughput (the
# single-process runs as points at 1), bytes sent to other ranks per item, and the share of the
# time spent waiting on communication.
#   gnuplot -e "dat='bench/results/mpi-summary.dat'; outdir='bench/results'" bench/mpi/plot.gp
set terminal pngcairo size 1500,450
set output outdir."/mpi.png"
set termoption noenhanced
set multiplot layout 1,3 title "emflow::mpi on one 2-core machine (4 ranks share 2 cores)"
set xlabel "ranks"
set xtics ("1" 1, "2" 2, "4" 4)
set xrange [0.5:4.5]
set key top right
set title "per-rank throughput"
set ylabel "million items (sort) / nodes (tfp) per s per rank"
set yrange [0:*]
plot dat using (strcol(1) eq "sort" ? $2 : 1/0):3 with linespoints pt 7 title "distributed sort", \
     dat using (strcol(1) eq "tfp" ? $2 : 1/0):3 with linespoints pt 5 title "distributed TFP", \
     dat using (strcol(1) eq "sort_local" ? $2 : 1/0):3 with points pt 6 ps 2 title "sort node, one process", \
     dat using (strcol(1) eq "tfp_local" ? $2 : 1/0):3 with points pt 4 ps 2 title "TFP, one process"
set title "bytes sent to other ranks per item"
set ylabel "bytes per item (sort: 8-byte items; tfp: per node)"
plot dat using (strcol(1) eq "sort" ? $2 : 1/0):4 with linespoints pt 7 title "distributed sort", \
     dat using (strcol(1) eq "tfp" ? $2 : 1/0):4 with linespoints pt 5 title "distributed TFP"
set title "time waiting on communication (share of the run)"
set ylabel "share of the run's time"
set yrange [0:1]
set key top left
plot dat using (strcol(1) eq "sort" ? $2 : 1/0):5 with linespoints pt 7 title "sort: senders (back-pressure)", \
     dat using (strcol(1) eq "sort" ? $2 : 1/0):6 with linespoints pt 7 dashtype 2 title "sort: receiver", \
     dat using (strcol(1) eq "sort" ? $2 : 1/0):7 with linespoints pt 7 dashtype 3 title "sort: collectives", \
     dat using (strcol(1) eq "tfp" ? $2 : 1/0):6 with linespoints pt 5 dashtype 2 title "tfp: receiver", \
     dat using (strcol(1) eq "tfp" ? $2 : 1/0):7 with linespoints pt 5 dashtype 3 title "tfp: collectives"
unset multiplot
