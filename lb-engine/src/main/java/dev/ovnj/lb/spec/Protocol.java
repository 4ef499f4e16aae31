package dev.ovnj.lb.spec;

import java.util.Locale;

/** The transport protocol of a VIP; OVN keeps one Load_Balancer row per protocol. */
public enum Protocol {
    /** TCP, OVN's default. */
    TCP,
    /** UDP. */
    UDP,
    /** SCTP. */
    SCTP;

    // Computed once: row names and protocol columns are built from it for every spec on each pass.
    private final String wire = name().toLowerCase(Locale.ROOT);

    /**
     * The value OVN stores in {@code Load_Balancer.protocol}.
     *
     * @return the value OVN stores in {
     */
    public String wireValue() {
        return wire;
    }

    /**
     * Parses {@code tcp}, {@code udp} or {@code sctp} (any case).
     *
     * @param text the protocol name
     * @return the protocol
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Protocol parse(String text) {
        for (Protocol p : values()) {
            if (p.wireValue().equalsIgnoreCase(text)) {
                return p;
            }
        }
        throw new IllegalArgumentException("protocol \"" + text + "\" is not one of tcp, udp, sctp");
    }
}
