# bench/sa/plot.gp: throughput of suffix-array construction by text size, one panel per text,
# one line per algorithm and budget (from bench/run-sa's CSV). Called with csv, png, svg set.
set datafile separator ','
texts = system("tail -n +2 '".csv."' | cut -d, -f1 | sort -u | tr '\\n' ' '")
algos = system("tail -n +2 '".csv."' | cut -d, -f3,4 | sort -u | tr '\\n' ' '")
ntexts = words(texts)
set key outside right top font ',9'
set xlabel 'text size (MiB)'
set ylabel 'MiB/s'
set logscale x 2
set grid
do for [fmt in 'png svg'] {
    if (fmt eq 'png') { set terminal pngcairo size 1100, 420 * ntexts; set output png }
    else { set terminal svg size 1100, 420 * ntexts; set output svg }
    set multiplot layout ntexts, 1
    do for [t in texts] {
        set title 'text: '.t
        plot for [a in algos] csv using \
            ((strcol(1) eq t && strcol(3).','.strcol(4) eq a && strcol(6) ne '') ? $2 : 1/0):6 \
            with linespoints title (a[1:2] eq '-,' ? a[3:] : a[strstrt(a, ',') + 1:].' @ '.a[1:strstrt(a, ',') - 1].' MiB')
    }
    unset multiplot
}
