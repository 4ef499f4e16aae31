package dev.ovnj.lb.diagnosis;

import dev.ovnj.lb.spec.Endpoint;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A logical flow that load-balances one VIP: {@code ct_lb(backends=...)} or
 * {@code ct_lb_mark(backends=...)} with {@code ip4.dst == VIP} (or {@code ip6.dst}) and, for VIPs
 * with a port, the L4 destination in its match, in either of the forms ovn-northd writes:
 * {@code tcp.dst == PORT} (OVN 23.03, 25.03) or the registers northd loaded the protocol and port
 * into, {@code reg1[16..23] == IPPROTO && reg1[0..15] == PORT} (OVN 26.03).
 *
 * @param datapaths the Southbound datapaths the flow is on (its own, or its datapath group's)
 * @param key the VIP key it serves (see {@link #parse})
 * @param backends its backends, canonical, in order
 */
record LbFlow(Set<UUID> datapaths, String key, List<String> backends) {
    private static final Pattern DST = Pattern.compile("\\bip[46]\\.dst == ([0-9a-fA-F.:]+)(?![/0-9a-fA-F.:])");
    private static final Pattern PORT = Pattern.compile("\\b(tcp|udp|sctp)\\.dst == (\\d+)");
    private static final Pattern REG_PROTO = Pattern.compile("\\breg1\\[16\\.\\.23\\] == (\\d+)");
    private static final Pattern REG_PORT = Pattern.compile("\\breg1\\[0\\.\\.15\\] == (\\d+)");
    private static final Pattern BACKENDS = Pattern.compile("ct_lb(?:_mark)?\\(backends=([^;)]*)");

    LbFlow {
        datapaths = Set.copyOf(datapaths);
        backends = List.copyOf(backends);
    }

    /**
     * Reads the VIP and backends of a flow, when it load-balances.
     *
     * @param match the flow's match
     * @param actions the flow's actions
     * @return the VIP key ({@code IP:PORT/proto}, or {@code IP/} for a VIP without port) and backends
     */
    static Optional<Parsed> parse(String match, String actions) {
        Matcher b = BACKENDS.matcher(actions);
        if (!b.find()) {
            return Optional.empty();
        }
        Matcher d = DST.matcher(match);
        if (!d.find()) {
            return Optional.empty();
        }
        String ip = Endpoints.host(d.group(1));
        if (ip.isEmpty()) {
            return Optional.empty();
        }
        String host = ip.contains(":") ? "[" + ip + "]" : ip;
        Matcher p = PORT.matcher(match);
        Matcher rp = REG_PROTO.matcher(match);
        Matcher rn = REG_PORT.matcher(match);
        String key;
        if (p.find()) {
            key = NorthboundFacts.vipKey(host + ":" + Integer.parseInt(p.group(2)), p.group(1));
        } else if (rp.find() && rn.find()) {
            Optional<String> protocol = protocolNamed(Integer.parseInt(rp.group(1)));
            if (protocol.isEmpty()) {
                return Optional.empty();
            }
            key = NorthboundFacts.vipKey(host + ":" + Integer.parseInt(rn.group(1)), protocol.get());
        } else {
            key = NorthboundFacts.vipKey(ip, "");
        }
        return Optional.of(new Parsed(key, Endpoints.backends(b.group(1))));
    }

    /** The load-balancer protocol of an IP protocol number (IANA: 6 TCP, 17 UDP, 132 SCTP). */
    private static Optional<String> protocolNamed(int ipProto) {
        return switch (ipProto) {
            case 6 -> Optional.of("tcp");
            case 17 -> Optional.of("udp");
            case 132 -> Optional.of("sctp");
            default -> Optional.empty();
        };
    }

    /**
     * The key a VIP's flows are found under: with a port, VIP and protocol; without, the bare IP
     * (northd's match then names no protocol).
     */
    static String lookupKey(Endpoint vip, String protocol) {
        return vip.hasPort() ? NorthboundFacts.vipKey(vip.toString(), protocol) : NorthboundFacts.vipKey(vip.host(), "");
    }

    /**
     * A parsed flow before its datapaths are resolved.
     *
     * @param key the VIP key
     * @param backends canonical backends
     */
    record Parsed(String key, List<String> backends) {
    }
}
