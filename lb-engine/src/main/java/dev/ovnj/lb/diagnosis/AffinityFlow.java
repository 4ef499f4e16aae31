package dev.ovnj.lb.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The logical flow that sends a client with a learned session-affinity backend to that backend:
 * ovn-northd writes one per VIP and backend, in the router's DNAT stage or the switch's load-balancing
 * stage, matching the registers that the flow {@code commit_lb_aff} learned loads (e.g.
 * {@code reg9[6] == 1 && ct.new && ip4 && reg4 == 10.0.0.2 && reg8[0..15] == 8080} on OVN 23.03,
 * {@code ... reg4 == 10.0.0.2 && reg2[0..15] == 8080} from 25.03 on) with
 * {@code ct_lb_mark(backends=10.0.0.2:8080)}. {@code ovn-trace} does not run {@code chk_lb_aff} or
 * {@code commit_lb_aff}; preset in the traced packet, these register comparisons play the learned
 * flow's part, so the trace of a client's retransmission goes on past the learning stage. The
 * registers are read from the flow rather than assumed, as they differ between releases.
 *
 * @param datapaths the Southbound datapaths the flow is on
 * @param backend the backend, canonical {@code IP:PORT}
 * @param registers the match's register comparisons, e.g. {@code reg9[6] == 1}, {@code reg4 == 10.0.0.2}
 */
record AffinityFlow(Set<UUID> datapaths, String backend, List<String> registers) {
    private static final Pattern BACKENDS = Pattern.compile("ct_lb(?:_mark)?\\(backends=([^;)]*)");
    private static final Pattern REGISTER = Pattern.compile("^x{0,2}reg\\d+(?:\\[\\d+(?:\\.\\.\\d+)?\\])?\\s*==\\s*(\\S+)$");

    AffinityFlow {
        datapaths = Set.copyOf(datapaths);
        registers = List.copyOf(registers);
    }

    /**
     * Reads a flow, when it is one: it load-balances to one backend and compares a register with
     * that backend's address.
     *
     * @param match the flow's match
     * @param actions the flow's actions
     * @return the backend and the register comparisons, or empty
     */
    static Optional<Parsed> parse(String match, String actions) {
        Matcher b = BACKENDS.matcher(actions);
        if (!b.find()) {
            return Optional.empty();
        }
        List<String> backends = Endpoints.backends(b.group(1));
        if (backends.size() != 1) {
            return Optional.empty();
        }
        String host = Endpoints.host(backends.get(0));
        if (host.isEmpty()) {
            return Optional.empty();
        }
        List<String> registers = new ArrayList<>();
        boolean holdsBackend = false;
        for (String term : match.split("&&")) {
            Matcher r = REGISTER.matcher(term.trim());
            if (r.matches()) {
                registers.add(term.trim());
                holdsBackend |= host.equals(Endpoints.host(r.group(1)));
            }
        }
        return holdsBackend ? Optional.of(new Parsed(backends.get(0), registers)) : Optional.empty();
    }

    /**
     * A parsed flow before its datapaths are resolved.
     *
     * @param backend the canonical backend
     * @param registers the register comparisons
     */
    record Parsed(String backend, List<String> registers) {
    }
}
