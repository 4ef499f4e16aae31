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
}
