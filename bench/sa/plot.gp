# SPDX-License-Identifier: BSL-1.0
# bench/sa/plot.gp: one bar per run of bench/run-sa's CSV (text, size, budget, algorithm): its
# seconds (log scale), and its time over its floor's on the same text (libdivsufsort for the
# suffix array; libdivsufsort + Kasai for the runs with the LCP array); and, from the phases CSV,
# each eSAIS run's seconds per phase, with its priority queue's share of the inducing.
# Called with csv, phases, png, svg set.
set datafile separator ','
set style fill solid 0.6 border -1
set boxwidth 0.7
set grid ytics
set xtics rotate by -30 font ',8' noenhanced
label(t, m, b, a) = t.' '.m.' MiB '.a.(b eq '-' ? '' : ', budget '.b.' MiB')
# the CSV with a 10th column: seconds over the floor's seconds on the same text (the LCP floor
# for kasai and the esais-lcp runs), if that floor ran
ratios = "< awk -F, 'NR == FNR { f[$1 \",\" $2 \",\" $4] = $5; next } FNR > 1 { k = $1 \",\" $2 \",\" ($4 ~ /lcp|kasai/ ? \"kasai\" : \"divsufsort\"); if (f[k] > 0) print $0 \",\" $5 / f[k] }' ".csv." ".csv
has_phases = system("test -s '".phases."' && test $(wc -l < '".phases."') -gt 1 && echo 1 || echo 0") + 0
do for [fmt in 'png svg'] {
    # each plot's rotated labels take about 200 pixels of its height
    if (fmt eq 'png') { set terminal pngcairo size 1100, (has_phases ? 1650 : 1000); set output png }
    else { set terminal svg size 1100, (has_phases ? 1650 : 1000); set output svg }
    set multiplot layout (has_phases ? 3 : 2), 1
    set title 'suffix-array construction: seconds per run'
    set logscale y
    set ylabel 'seconds'
    plot csv every ::1 using 0:5:xtic(label(strcol(1), strcol(2), strcol(3), strcol(4))) with boxes notitle
    unset logscale y
    set yrange [0:*]
    set offsets 0, 0, 1.5, 0  # room above the 6x line and the tallest bar
    set key outside right top
    set title 'time / floor time on the same text (libdivsufsort; + Kasai for LCP runs)'
    set ylabel 'x floor'
    plot ratios using 0:10:xtic(label(strcol(1), strcol(2), strcol(3), strcol(4))) with boxes notitle, \
         4 with lines dashtype 2 title '4x (eSAIS SA goal)', 6 with lines dashtype 3 title '6x (SA+LCP goal)'
    set offsets 0, 0, 0, 0
    set key default
    if (has_phases) {
        set title 'eSAIS phases (seconds); label: priority queue share of the inducing'
        set ylabel 'seconds'
        set style data histograms
        set style histogram rowstacked
        set key outside right top noenhanced
        plot for [i = 5:9] phases using i:xtic(label(strcol(1), strcol(2), strcol(3), strcol(4).' ('.sprintf('%.0f%%', 100 * column(12)).' PQ)')) \
             title columnhead(i)
        unset style data
        set key default
    }
    unset multiplot
    set autoscale y
}
