package dev.ovnj.kubernetes;

import dev.ovnj.nb.ip.IpFamily;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The addresses this process released, least recently released first, so that allocation gives a
 * released address out again last: a client's stale ARP cache or connection then does not reach
 * the next tenant while other addresses are free. Kept in memory (a restarted controller starts
 * without history, as MetalLB's does) and bounded to {@value #LIMIT} addresses, the oldest
 * forgotten first. Thread-safe.
 */
final class ReleasedAddresses {
    /** How many released addresses are remembered. */
    static final int LIMIT = 1024;

    private final LinkedHashMap<InetAddress, Boolean> order = new LinkedHashMap<>();

    /** An address was released: it becomes the most recently released one. */
    synchronized void released(InetAddress ip) {
        order.remove(ip);
        order.put(ip, Boolean.TRUE);
        Iterator<Map.Entry<InetAddress, Boolean>> oldest = order.entrySet().iterator();
        while (order.size() > LIMIT && oldest.hasNext()) {
            oldest.next();
            oldest.remove();
        }
    }

    /** An address was claimed again: no longer a released one. */
    synchronized void taken(InetAddress ip) {
        order.remove(ip);
    }

    /** The released addresses of a family, least recently released first. */
    synchronized List<InetAddress> oldestFirst(IpFamily family) {
        List<InetAddress> out = new ArrayList<>();
        order.keySet().forEach(ip -> {
            if (IpFamily.of(ip) == family) {
                out.add(ip);
            }
        });
        return out;
    }
}
