package dev.ovnj.testkit.inmemory;

import java.net.SocketAddress;
import java.time.Duration;

/**
 * One client connection of an {@link InMemoryOvsdbServer}, for faults aimed at a single client:
 * from {@link InMemoryOvsdbServer#connections()}.
 */
public final class ClientConnection {
    private final ConnectionHandler session;
    private final SocketAddress remoteAddress;

    ClientConnection(ConnectionHandler session, SocketAddress remoteAddress) {
        this.session = session;
        this.remoteAddress = remoteAddress;
    }

    /**
     * The client's address (a TCP address, or the socket path for unix sockets).
     *
     * @return where the client connects from
     */
    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    /** Closes this connection as a crashing server would; other clients stay connected. */
    public void drop() {
        session.close();
    }

    /**
     * Delays every reply and notification to this client by this much (zero to stop), keeping
     * their order; this overrides the server-wide {@link InMemoryOvsdbServer#delay(Duration)}.
     *
     * @param delay the delay per message
     */
    public void delay(Duration delay) {
        session.delayMillis(delay.toMillis());
    }

    @Override
    public String toString() {
        return "ClientConnection[" + remoteAddress + "]";
    }
}
