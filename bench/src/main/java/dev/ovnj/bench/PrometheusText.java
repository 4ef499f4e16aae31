package dev.ovnj.bench;

/**
 * Figures read from the Prometheus text of an {@code ovnj kubernetes} process's {@code /metrics}.
 *
 * @param text the exposition text
 */
record PrometheusText(String text) {
    /**
     * The sum of a metric's samples whose labels contain {@code labels} (e.g. {@code area="heap"};
     * empty: every sample), or 0 if it has none.
     *
     * @param name the sample name, e.g. {@code jvm_memory_used_bytes}
     * @param labels text the label set must contain, or empty
     * @return the sum
     */
    double sum(String name, String labels) {
        double total = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || !line.startsWith(name)) {
                continue;
            }
            String rest = line.substring(name.length());
            String labelSet = "";
            if (rest.startsWith("{")) {
                int close = rest.indexOf('}');
                labelSet = rest.substring(1, close);
                rest = rest.substring(close + 1);
            } else if (!rest.startsWith(" ")) {
                continue; // another metric whose name starts with this one
            }
            if (labelSet.contains(labels)) {
                total += Double.parseDouble(rest.trim().split(" ")[0]);
            }
        }
        return total;
    }
}
