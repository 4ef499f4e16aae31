package dev.ovnj.cli;

import dev.ovnj.lb.RepairEvent;
import java.util.Locale;

/** The one line printed for each drift repair, the same in watch mode and in the demo. */
final class RepairLine {

    private RepairLine() {
    }

    /**
     * Formats a repair.
     *
     * @param event the engine's repair event
     * @return e.g. {@code repaired shalb-dev-etcd-lb-tcp (recreated) in 11.3 ms}
     */
    static String of(RepairEvent event) {
        return String.format(Locale.ROOT, "repaired %s (%s) in %.1f ms", event.row(), event.what(),
                event.latency().toNanos() / 1e6);
    }

    /**
     * One line for a mass repair (thousands of rows at once), instead of a line per row.
     *
     * @param events the repairs of one round, not empty
     * @return e.g. {@code repaired 10000 rows of owner kube-dc in 850.2 ms (12 recreated)}
     */
    static String summary(java.util.List<RepairEvent> events) {
        java.util.Set<String> owners = new java.util.TreeSet<>();
        long recreated = 0;
        long slowest = 0;
        for (RepairEvent e : events) {
            owners.add(e.owner());
            recreated += e.what().contains("recreated") ? 1 : 0;
            slowest = Math.max(slowest, e.latency().toNanos());
        }
        return String.format(Locale.ROOT, "repaired %d rows of owner %s in %.1f ms (%d recreated)", events.size(),
                String.join(", ", owners), slowest / 1e6, recreated);
    }
}
