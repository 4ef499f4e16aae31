package dev.ovnj.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A machine on a logical switch port: a network namespace whose {@code eth0} is a veth pair's end,
 * the other end plugged into the {@link Chassis}'s {@code br-int} with
 * {@code external_ids:iface-id} = the port, with the port's MAC address, an IPv4 and/or IPv6
 * address and default routes. It runs {@link EchoServer}s and sends requests ({@link #request},
 * {@link #probe}) with python3 inside the namespace. Made by {@link Chassis#host(String)};
 * {@link #close()} (or closing the chassis) removes the namespace, its veth pair and every
 * process in it.
 */
public final class Host implements AutoCloseable {
    private final Chassis chassis;
    private final String name;
    private final String namespace;
    private final String logicalPort;
    private final String chassisSideInterface;
    private final Optional<String> ipv4;
    private final Optional<String> ipv6;
    private final List<AutoCloseable> owned = new ArrayList<>();
    private boolean closed;

    Host(Chassis chassis, String name, String namespace, String logicalPort, String chassisSideInterface,
            Optional<String> ipv4, Optional<String> ipv6) {
        this.chassis = chassis;
        this.name = name;
        this.namespace = namespace;
        this.logicalPort = logicalPort;
        this.chassisSideInterface = chassisSideInterface;
        this.ipv4 = ipv4;
        this.ipv6 = ipv6;
    }

    /**
     * The host's name, which its echo servers answer with.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The network namespace, for {@code ip netns exec}.
     *
     * @return the namespace's name
     */
    public String namespace() {
        return namespace;
    }

    /**
     * The logical switch port it is bound to.
     *
     * @return the port's name
     */
    public String logicalPort() {
        return logicalPort;
    }

    /**
     * The name of the veth end on the chassis, a port of {@code br-int} (for {@code ofproto/trace in_port=}).
     *
     * @return the interface name inside the chassis's namespace
     */
    public String chassisSideInterface() {
        return chassisSideInterface;
    }

    /**
     * The IPv4 address, without prefix length.
     *
     * @return the address, empty when the host has none
     */
    public Optional<String> ipv4() {
        return ipv4;
    }

    /**
     * The IPv6 address, without prefix length.
     *
     * @return the address, empty when the host has none
     */
    public Optional<String> ipv6() {
        return ipv6;
    }

    /**
     * Starts an echo server answering TCP and UDP on {@code port} with this host's name, and waits
     * until it listens.
     *
     * @param port the port
     * @return the running server
     */
    public synchronized EchoServer serve(int port) {
        EchoServer server = new EchoServer(this, port, chassis.agent(namespace, "serve", name, Integer.toString(port)));
        owned.add(server);
        return server.start();
    }

    /**
     * Sends one request and returns what came back; a failed request whose cause is a dead
     * {@code ovs-vswitchd} or {@code ovn-controller} throws with the daemon's last words instead.
     *
     * @param transport TCP or UDP
     * @param address an IPv4 or IPv6 address
     * @param port the port
     * @param timeout how long to wait for the answer
     * @return the reply
     */
    public Reply request(Transport transport, String address, int port, Duration timeout) {
        List<String> argv = chassis.agent(namespace, "request", transport.agentName(), address, Integer.toString(port),
                Long.toString(timeout.toMillis()));
        Command.Result r = Command.of(argv).timeout(timeout.plusSeconds(20)).run();
        if (!r.ok()) {
            throw new TestkitException("request from " + name + " to " + address + ":" + port + " could not run: " + r.stderr());
        }
        Reply reply = Reply.parse(r.stdout());
        if (!reply.answered()) {
            chassis.assertAlive();
        }
        return reply;
    }

    /**
     * Starts a client sending a request every {@code interval} (not waiting for the previous one),
     * each with its own {@code timeout}; {@link Prober#stop()} returns what they got.
     *
     * @param transport TCP or UDP
     * @param address an IPv4 or IPv6 address
     * @param port the port
     * @param interval the time between two requests, e.g. 10 ms
     * @param timeout how long each request waits for its answer
     * @return the running probe
     */
    public synchronized Prober probe(Transport transport, String address, int port, Duration interval, Duration timeout) {
        Prober prober = new Prober(chassis, name + " -> " + transport + " " + address + ":" + port,
                chassis.agent(namespace, "probe", transport.agentName(), address, Integer.toString(port),
                        Long.toString(interval.toMillis()), Long.toString(timeout.toMillis())), interval, timeout);
        owned.add(prober);
        return prober;
    }

    /**
     * Runs a command inside the host's namespace, e.g. {@code ip neigh} or {@code ip -6 route}.
     *
     * @param argv program and arguments
     * @return exit code and output
     */
    public Command.Result exec(String... argv) {
        return Command.of(Netns.exec(namespace, List.of(argv))).timeout(Duration.ofSeconds(30)).run();
    }

    /** Stops its servers and probes, unplugs it from {@code br-int} and removes its namespace. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                // Whatever is left dies with the namespace below.
            }
        }
        chassis.unplug(this);
        Netns.delete(namespace);
    }

    @Override
    public String toString() {
        return "Host[" + name + " on " + logicalPort + ", " + ipv4.orElse("-") + ", " + ipv6.orElse("-") + "]";
    }
}
