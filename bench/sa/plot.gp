# bench/sa/plot.gp: one bar per run of bench/run-sa's CSV (text, size, budget, algorithm): its
# seconds (log scale), and its time over libdivsufsort's on the same text (the floor).
# Called with csv, png, svg set.
set datafile separator ','
set style fill solid 0.6 border -1
set boxwidth 0.7
set grid ytics
set xtics rotate by -30 font ',8' noenhanced
label(t, m, b, a) = t.' '.m.' MiB '.a.(b eq '-' ? '' : ', budget '.b.' MiB')
# the CSV with a 10th column: seconds over libdivsufsort's seconds on the same text
ratios = "< awk -F, 'NR == FNR { if ($4 == \"divsufsort\") f[$1 \",\" $2] = $5; next } FNR > 1 { print $0 \",\" $5 / f[$1 \",\" $2] }' ".csv." ".csv
do for [fmt in 'png svg'] {
    if (fmt eq 'png') { set terminal pngcairo size 1100, 800; set output png }
    else { set terminal svg size 1100, 800; set output svg }
    set multiplot layout 2, 1
    set title 'suffix-array construction: seconds per run'
    set logscale y
    set ylabel 'seconds'
    plot csv every ::1 using 0:5:xtic(label(strcol(1), strcol(2), strcol(3), strcol(4))) with boxes notitle
    unset logscale y
    set yrange [0:*]
    set title 'time / libdivsufsort time on the same text (goal for DC3 at 1 GiB: <= 8)'
    set ylabel 'x libdivsufsort'
    plot ratios using 0:10:xtic(label(strcol(1), strcol(2), strcol(3), strcol(4))) with boxes notitle, \
         8 with lines dashtype 2 title '8x'
    unset multiplot
    set autoscale y
}
