# SPDX-License-Identifier: BSL-1.0
# bench/soak/plot.gp: ops/s of each ppq_soak configuration (bench/results/soak-ppq.csv), one bar
# per (budget, threads); failed runs have no bar. Called by bench/run-soak with csv and out set.
set terminal pngcairo size 900,450
set output out
set datafile separator ","
set title "ppq\\_soak: item operations per second (PPQ + std::multiset model, nice 10, shared machine)"
set style fill solid 0.6
set boxwidth 0.7
set ylabel "ops/s"
set yrange [0:*]
set xtics rotate by -30
set key off
plot csv every ::1 using 0:(stringcolumn(12) eq "PASS" ? $8 : 1/0):xtic(1) with boxes
