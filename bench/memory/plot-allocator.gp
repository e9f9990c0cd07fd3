# SPDX-License-Identifier: BSL-1.0
# bench/memory/plot-allocator.gp: peak RSS of the bare PPQ against its budget (the promise:
# budget + 64 MiB) and the mean time of each allocator setting relative to glibc's default
# (memory-allocator-summary.csv), per mmap threshold; eSAIS's ratios at 256 MiB as crosses.
#   gnuplot -e "summary='bench/results/memory-allocator-summary.csv'; outdir='bench/results'" \
#       bench/memory/plot-allocator.gp
set datafile separator ","
set terminal pngcairo size 1200,500
set output outdir."/memory-allocator.png"
set multiplot layout 1,2
is_ppq(w) = strstrt(w, "ppq-") == 1
set title "bare PPQ, four experiments: peak RSS"
set xlabel "budget (MiB)"
set ylabel "peak RSS (MiB)"
set logscale xy 2
set xrange [32:2048]
set key top left
plot summary using (is_ppq(strcol(1)) && strcol(3) eq "default" ? $2 : 1/0):6 with points pt 7 title "glibc default", \
     summary using (is_ppq(strcol(1)) && strcol(3) eq "65536" ? $2 * 1.04 : 1/0):6 with points pt 5 title "64 KiB", \
     summary using (is_ppq(strcol(1)) && strcol(3) eq "262144" ? $2 * 1.08 : 1/0):6 with points pt 9 title "256 KiB", \
     summary using (is_ppq(strcol(1)) && strcol(3) eq "1048576" ? $2 * 1.12 : 1/0):6 with points pt 11 title "1 MiB", \
     x + 64 with lines dashtype 2 title "budget + 64 MiB"
unset logscale
set logscale x 2
set xrange [32:2048]
set title "mean time relative to glibc's default (PPQ: dots, eSAIS: crosses)"
set ylabel "time ratio"
set yrange [0.5:2]
plot summary using (is_ppq(strcol(1)) && strcol(3) eq "65536" ? $2 * 1.04 : 1/0):7 with points pt 5 title "64 KiB", \
     summary using (is_ppq(strcol(1)) && strcol(3) eq "262144" ? $2 * 1.08 : 1/0):7 with points pt 9 title "256 KiB", \
     summary using (is_ppq(strcol(1)) && strcol(3) eq "1048576" ? $2 * 1.12 : 1/0):7 with points pt 11 title "1 MiB", \
     summary using (strcol(1) eq "esais" && strcol(3) ne "default" ? $2 : 1/0):7 with points pt 2 ps 2 title "eSAIS (any threshold)", \
     1 with lines dashtype 2 title "default"
unset multiplot
