package dev.ovnj.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Three kinds of chart as plain SVG text, enough for the benchmark docs without a plotting
 * dependency: a line chart (optionally log x), a cumulative distribution of samples, and
 * horizontal bars with an optional reference line.
 */
final class Svg {
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
    private static final int W = 680;
    private static final int H = 380;
    private static final int LEFT = 70;
    private static final int RIGHT = 210;
    private static final int TOP = 40;
    private static final int BOTTOM = 50;

    private Svg() {
    }

    /** A named series of points. */
    record Series(String name, double[] xs, double[] ys) {
    }

    /** One bar. */
    record Bar(String label, double value) {
    }

    /**
     * A line chart with markers; y from zero, x linear or logarithmic.
     *
     * @param title the title
     * @param xLabel x axis label
     * @param yLabel y axis label
     * @param logX logarithmic x axis (all x must be positive)
     * @param series the series
     * @return SVG text
     */
    static String lines(String title, String xLabel, String yLabel, boolean logX, List<Series> series) {
        double xMin = Double.MAX_VALUE;
        double xMax = -Double.MAX_VALUE;
        double yMax = 0;
        for (Series s : series) {
            for (int i = 0; i < s.xs().length; i++) {
                xMin = Math.min(xMin, s.xs()[i]);
                xMax = Math.max(xMax, s.xs()[i]);
                yMax = Math.max(yMax, s.ys()[i]);
            }
        }
        if (series.isEmpty() || xMin == Double.MAX_VALUE) {
            return empty(title);
        }
        Axis x = logX ? Axis.log(xMin, xMax) : Axis.linear(Math.min(0, xMin), xMax);
        Axis y = Axis.linear(0, yMax);
        StringBuilder sb = frame(title, xLabel, yLabel, x, y);
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            String color = COLORS[k % COLORS.length];
            StringBuilder path = new StringBuilder();
            for (int i = 0; i < s.xs().length; i++) {
                path.append(i == 0 ? "M" : " L").append(f(px(x, s.xs()[i]))).append(',').append(f(py(y, s.ys()[i])));
                sb.append(String.format(Locale.ROOT, "<circle cx=\"%s\" cy=\"%s\" r=\"3.5\" fill=\"%s\"><title>%s: %s</title></circle>%n",
                        f(px(x, s.xs()[i])), f(py(y, s.ys()[i])), color, esc(s.name()), num(s.ys()[i])));
            }
            sb.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n", path, color));
        }
        legend(sb, series.stream().map(Series::name).toList());
        return sb.append("</svg>\n").toString();
    }

    /**
     * Cumulative distributions: for each series of samples, the fraction at or below each value.
     *
     * @param title the title
     * @param xLabel x axis label (the sample unit)
     * @param series name and sorted samples per series (ys unused)
     * @param clipPercentile the x axis ends at the largest series' value at this percentile
     * @return SVG text
     */
    static String cdf(String title, String xLabel, List<Series> series, double clipPercentile) {
        double xMax = 0;
        for (Series s : series) {
            xMax = Math.max(xMax, Scenarios.percentile(s.xs(), clipPercentile));
        }
        if (series.isEmpty() || xMax <= 0) {
            return empty(title);
        }
        Axis x = Axis.linear(0, xMax);
        Axis y = Axis.linear(0, 1);
        StringBuilder sb = frame(title, xLabel, "fraction of samples <= x", x, y);
        for (int k = 0; k < series.size(); k++) {
            double[] v = series.get(k).xs();
            StringBuilder path = new StringBuilder();
            // At most ~400 points per curve: enough for the eye, small files for 30,000 samples.
            int step = Math.max(1, v.length / 400);
            for (int i = 0; i < v.length; i += step) {
                double xv = Math.min(v[i], xMax);
                path.append(i == 0 ? "M" : " L").append(f(px(x, xv))).append(',').append(f(py(y, (i + 1) / (double) v.length)));
            }
            path.append(" L").append(f(px(x, Math.min(v[v.length - 1], xMax)))).append(',').append(f(py(y, 1)));
            sb.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    path, COLORS[k % COLORS.length]));
        }
        legend(sb, series.stream().map(s -> s.name() + " (n=" + s.xs().length + ")").toList());
        return sb.append("</svg>\n").toString();
    }

    /**
     * Horizontal bars, one per label, with the value printed; an optional dashed reference line.
     *
     * @param title the title
     * @param unit the value unit, for the axis
     * @param bars the bars, top to bottom
     * @param reference a value to mark (e.g. the floor), or NaN
     * @param referenceLabel what the reference is
     * @return SVG text
     */
    static String bars(String title, String unit, List<Bar> bars, double reference, String referenceLabel) {
        if (bars.isEmpty()) {
            return empty(title);
        }
        int left = 150;
        int rowH = 26;
        int h = TOP + BOTTOM + rowH * bars.size();
        double max = bars.stream().mapToDouble(Bar::value).max().orElse(1);
        if (!Double.isNaN(reference)) {
            max = Math.max(max, reference);
        }
        Axis x = Axis.linear(0, max);
        double plotW = W - left - 90;
        StringBuilder sb = header(W, h, title);
        for (int i = 0; i < bars.size(); i++) {
            Bar b = bars.get(i);
            double y0 = TOP + i * rowH + 4;
            double w = (b.value() - x.min) / (x.max - x.min) * plotW;
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%s\" text-anchor=\"end\">%s</text>%n", left - 8, f(y0 + 14), esc(b.label())));
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%s\" width=\"%s\" height=\"%d\" fill=\"%s\"/>%n",
                    left, f(y0), f(Math.max(1, w)), rowH - 8, b.label().startsWith("ovnj") ? COLORS[0] : COLORS[7]));
            sb.append(String.format(Locale.ROOT, "<text x=\"%s\" y=\"%s\">%s</text>%n", f(left + w + 5), f(y0 + 14), num(b.value())));
        }
        double axisY = TOP + rowH * bars.size() + 4;
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#333\"/>%n", left, f(axisY), f(left + plotW), f(axisY)));
        for (double t : x.ticks()) {
            double tx = left + (t - x.min) / (x.max - x.min) * plotW;
            sb.append(String.format(Locale.ROOT, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\" fill=\"#555\">%s</text>%n", f(tx), f(axisY + 16), num(t)));
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>%n", f(left + plotW / 2), f(axisY + 36), esc(unit)));
        if (!Double.isNaN(reference)) {
            double rx = left + (reference - x.min) / (x.max - x.min) * plotW;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%s\" stroke=\"#d62728\" stroke-dasharray=\"5,4\"/>%n",
                    f(rx), TOP - 6, f(rx), f(axisY)));
            sb.append(String.format(Locale.ROOT, "<text x=\"%s\" y=\"%d\" fill=\"#d62728\">%s</text>%n", f(rx + 4), TOP - 8, esc(referenceLabel)));
        }
        return sb.append("</svg>\n").toString();
    }

    // ------------------------------------------------------------------ drawing helpers

    /** An axis range with "nice" ticks. */
    private record Axis(double min, double max, boolean log) {
        static Axis linear(double min, double max) {
            double span = max - min <= 0 ? Math.max(1, Math.abs(max)) : max - min;
            double step = niceStep(span / 5);
            return new Axis(Math.floor(min / step) * step, Math.ceil(max / step) * step, false);
        }

        static Axis log(double min, double max) {
            return new Axis(Math.pow(10, Math.floor(Math.log10(min))), Math.pow(10, Math.ceil(Math.log10(Math.max(max, min * 10)))), true);
        }

        double fraction(double v) {
            return log ? (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)) : (v - min) / (max - min);
        }

        List<Double> ticks() {
            List<Double> t = new ArrayList<>();
            if (log) {
                for (double v = min; v <= max * 1.0001; v *= 10) {
                    t.add(v);
                }
            } else {
                double step = niceStep((max - min) / 5);
                for (double v = min; v <= max + step / 1000; v += step) {
                    t.add(v);
                }
            }
            return t;
        }

        static double niceStep(double raw) {
            double p = Math.pow(10, Math.floor(Math.log10(raw)));
            double m = raw / p;
            return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
        }
    }

    private static double px(Axis x, double v) {
        return LEFT + x.fraction(v) * (W - LEFT - RIGHT);
    }

    private static double py(Axis y, double v) {
        return H - BOTTOM - y.fraction(v) * (H - TOP - BOTTOM);
    }

    private static StringBuilder header(int w, int h, String title) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", w, h, w, h));
        sb.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", w, h));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n", 10, esc(title)));
        return sb;
    }

    private static StringBuilder frame(String title, String xLabel, String yLabel, Axis x, Axis y) {
        StringBuilder sb = header(W, H, title);
        int x0 = LEFT;
        int x1 = W - RIGHT;
        int y0 = H - BOTTOM;
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", x0, y0, x1, y0));
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", x0, TOP, x0, y0));
        for (double t : x.ticks()) {
            double tx = px(x, t);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" stroke=\"#eee\"/>%n", f(tx), TOP, f(tx), y0));
            sb.append(String.format(Locale.ROOT, "<text x=\"%s\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>%n", f(tx), y0 + 16, num(t)));
        }
        for (double t : y.ticks()) {
            double ty = py(y, t);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" stroke=\"#eee\"/>%n", x0, f(ty), x1, f(ty)));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%s\" text-anchor=\"end\" fill=\"#555\">%s</text>%n", x0 - 6, f(ty + 4), num(t)));
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", (x0 + x1) / 2, H - 12, esc(xLabel)));
        sb.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">%s</text>%n",
                (TOP + y0) / 2, (TOP + y0) / 2, esc(yLabel)));
        return sb;
    }

    private static void legend(StringBuilder sb, List<String> names) {
        for (int k = 0; k < names.size(); k++) {
            int y = TOP + 10 + k * 18;
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n", W - RIGHT + 12, y - 10,
                    COLORS[k % COLORS.length]));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", W - RIGHT + 30, y, esc(names.get(k))));
        }
    }

    private static String empty(String title) {
        return header(W, 60, title).append("<text x=\"10\" y=\"45\">no data in this run</text>\n</svg>\n").toString();
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** A number for labels: few digits, thousands as k. */
    static String num(double v) {
        double a = Math.abs(v);
        if (a >= 1000 && v == Math.rint(v) && a % 1000 == 0) {
            return String.format(Locale.ROOT, "%dk", Math.round(v / 1000));
        }
        if (a >= 10_000) {
            return String.format(Locale.ROOT, "%,d", Math.round(v));
        }
        if (a >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
