package dev.ovnj.testkit;

import java.util.Locale;

/** The transport of a request a {@link Host} sends or an {@link EchoServer} answers. */
public enum Transport {
    /** A TCP connection: connect, send a line, read the answer. */
    TCP,
    /** One UDP datagram and its answer. */
    UDP;

    String agentName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
