package dev.ovnj.nb.eip;

import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.nb.model.Nat;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.Wait;
import dev.ovnj.ovsdb.tx.WaitTimedOutException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Hands out free external IPs from the network of a Logical_Router_Port, recording each as an
 * {@link EipClaim} in that port's {@code external_ids}.
 *
 * <p>A free address lies in the port's network, is neither the IPv4 network nor broadcast address
 * (see {@link IpNetwork#hosts()}), nor any router port's own address, nor any NAT
 * {@code external_ip}, nor the address of any Load_Balancer VIP (on any port), nor claimed, nor
 * in the request's exclude list. The lowest free address is chosen.
 *
 * <p>Concurrency: the allocator decides from its client's cache, then claims in one transaction
 * that first {@code wait}s, with timeout 0, for the columns it decided from to be exactly as read:
 * {@code networks} and {@code external_ids} of every Logical_Router_Port, {@code external_ip} of
 * every NAT row and {@code vips} of every Load_Balancer. Any change to them in between, such as a
 * concurrent claim by another allocator or process, fails the transaction with "timed out"
 * instead of allocating twice; the allocator then re-reads and tries again, after a short
 * randomized pause, up to a bounded number of attempts.
 */
public final class EipAllocator {
    /** Attempts per allocation when none is given. */
    public static final int DEFAULT_MAX_ATTEMPTS = 10;

    private static final long PAUSE_STEP_MILLIS = 10;

    private final OvsdbClient client;
    private final int maxAttempts;
    private final AtomicLong retries = new AtomicLong();

    /**
     * Creates an allocator with {@link #DEFAULT_MAX_ATTEMPTS}.
     *
     * @param client a started client monitoring Logical_Router, Logical_Router_Port, NAT,
     *     Load_Balancer and Logical_Switch
     */
    public EipAllocator(OvsdbClient client) {
        this(client, DEFAULT_MAX_ATTEMPTS);
    }

    /**
     * Creates an allocator.
     *
     * @param client a started client monitoring the tables listed for {@link #EipAllocator(OvsdbClient)}
     * @param maxAttempts how many claims one allocation may try before giving up, at least 1
     */
    public EipAllocator(OvsdbClient client, int maxAttempts) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
        this.client = client;
        this.maxAttempts = maxAttempts;
    }

    /**
     * Allocates and claims a free address.
     *
     * @param request the port, owner, family and exclusions
     * @return the claimed address, once the claim is committed and in the client's cache; fails with
     *     {@link EipExhaustedException} when no address is free, {@link EipConflictException} when
     *     every attempt raced with a concurrent change, {@link IllegalArgumentException} when the port
     *     does not exist or has no network of the family, or the client's transaction errors
     */
    public CompletableFuture<InetAddress> allocate(EipRequest request) {
        return attempt(request, 1);
    }

    /**
     * Allocates and claims a free address, blocking.
     *
     * @param request the port, owner, family and exclusions
     * @param timeout how long to wait; on timeout the claim may still be committed later
     * @return the claimed address
     * @throws EipExhaustedException when no address is free
     * @throws EipConflictException when every attempt raced with a concurrent change
     * @throws java.util.concurrent.CompletionException wrapping a TimeoutException on timeout
     */
    public InetAddress allocateAndWait(EipRequest request, Duration timeout) {
        return Blocking.await(allocate(request), timeout, "EIP allocation on " + request.port());
    }

    /**
     * Removes every claim of an address. The address is free again unless a NAT rule or VIP
     * still uses it.
     *
     * @param ip an IPv4 or IPv6 literal
     * @return true once a claim was removed and the cache shows it, false when there was none
     */
    public CompletableFuture<Boolean> release(String ip) {
        InetAddress address;
        try {
            address = IpAddresses.parse(ip);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        List<EipClaim> held = NorthboundSnapshot.read(client.cache()).claims().stream()
                .filter(c -> c.ip().equals(address)).toList();
        if (held.isEmpty()) {
            return CompletableFuture.completedFuture(false);
        }
        Transaction.Builder tx = client.transaction();
        for (EipClaim claim : held) {
            tx.add(Operations.mutate(LogicalRouterPort.TABLE.name())
                    .where(LogicalRouterPort.NAME.eq(claim.port()))
                    .mutation(LogicalRouterPort.EXTERNAL_IDS.delete(EipClaim.key(address))));
        }
        return client.transact(tx.build()).thenApply(result -> true);
    }

    /**
     * Removes every claim of an address, blocking.
     *
     * @param ip an IPv4 or IPv6 literal
     * @param timeout how long to wait
     * @return true when a claim was removed, false when there was none
     */
    public boolean releaseAndWait(String ip, Duration timeout) {
        return Blocking.await(release(ip), timeout, "EIP release of " + ip);
    }

    /**
     * Counts the attempts repeated after a conflict, across all allocations of this allocator.
     *
     * @return the number of retries so far
     */
    public long retries() {
        return retries.get();
    }

    private CompletableFuture<InetAddress> attempt(EipRequest request, int attempt) {
        Claim claim;
        try {
            claim = plan(request);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return client.transact(claim.transaction()).handle((result, error) -> {
            if (error == null) {
                return CompletableFuture.completedFuture(claim.ip());
            }
            Throwable cause = Blocking.unwrap(error);
            if (!(cause instanceof WaitTimedOutException)) {
                return CompletableFuture.<InetAddress>failedFuture(cause);
            }
            if (attempt >= maxAttempts) {
                return CompletableFuture.<InetAddress>failedFuture(new EipConflictException(request.port(), attempt, cause));
            }
            retries.incrementAndGet();
            // The winner's update may reach our cache just after our failure: pause before
            // re-reading, randomized so that racing allocators spread out.
            long pause = PAUSE_STEP_MILLIS * attempt + ThreadLocalRandom.current().nextLong(PAUSE_STEP_MILLIS);
            return CompletableFuture.supplyAsync(() -> attempt(request, attempt + 1),
                    CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS)).thenCompose(Function.identity());
        }).thenCompose(Function.identity());
    }

    private Claim plan(EipRequest request) {
        NorthboundSnapshot nb = NorthboundSnapshot.read(client.cache());
        LogicalRouterPort port = nb.port(request.port())
                .orElseThrow(() -> new IllegalArgumentException("no Logical_Router_Port named " + request.port()));
        IpNetwork network = port.networks().stream().map(IpNetwork::parse).filter(n -> n.family() == request.family())
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Logical_Router_Port " + request.port() + " has no "
                        + request.family() + " network in " + port.networks()));
        InetAddress ip = firstFree(network, nb.usedAddresses(), request.exclude())
                .orElseThrow(() -> new EipExhaustedException(network, request.port()));
        Transaction tx = client.transaction()
                .add(unchanged(LogicalRouterPort.TABLE.name(), List.of("networks", "external_ids"), nb.ports().stream()
                        .map(p -> Map.<String, Object>of(
                                "networks", LogicalRouterPort.NETWORKS.toUntyped(p.networks()),
                                "external_ids", LogicalRouterPort.EXTERNAL_IDS.toUntyped(p.externalIds())))
                        .toList()))
                .add(unchanged(Nat.TABLE.name(), List.of("external_ip"), nb.nats().stream()
                        .map(n -> Map.<String, Object>of("external_ip", n.externalIp())).toList()))
                .add(unchanged(LoadBalancer.TABLE.name(), List.of("vips"), nb.loadBalancers().stream()
                        .map(lb -> Map.<String, Object>of("vips", LoadBalancer.VIPS.toUntyped(lb.vips()))).toList()))
                .add(Operations.mutate(LogicalRouterPort.TABLE.name())
                        .where(Condition.eq("_uuid", port.uuid().orElseThrow()))
                        .mutation(LogicalRouterPort.EXTERNAL_IDS.insert(EipClaim.key(ip), request.owner())))
                .build();
        return new Claim(ip, tx);
    }

    /** The wait that fails the transaction at once unless a whole table's projection is still {@code rows}. */
    private static Wait unchanged(String table, List<String> columns, List<Map<String, Object>> rows) {
        Wait wait = Operations.wait(table).columns(columns.toArray(String[]::new)).until(Wait.Until.EQ).timeout(0);
        // ovsdb-server compares the rows as sets, so duplicates add nothing.
        for (Map<String, Object> row : rows.stream().distinct().toList()) {
            wait = wait.row(row);
        }
        return wait;
    }

    /**
     * The lowest host address of the network that is neither used nor excluded; whole excluded
     * ranges are stepped over, so the search is bounded by the number of used addresses and
     * ranges, not by the size of the network.
     */
    static Optional<InetAddress> firstFree(IpNetwork network, Set<InetAddress> used, List<IpRange> exclude) {
        IpRange hosts = network.hosts();
        int bits = IpAddresses.bits(network.address());
        BigInteger candidate = IpAddresses.toInteger(hosts.first());
        BigInteger end = IpAddresses.toInteger(hosts.last());
        while (candidate.compareTo(end) <= 0) {
            InetAddress ip = IpAddresses.fromInteger(candidate, bits);
            Optional<IpRange> excluded = exclude.stream().filter(r -> r.contains(ip)).findFirst();
            if (excluded.isPresent()) {
                candidate = IpAddresses.toInteger(excluded.get().last()).add(BigInteger.ONE);
            } else if (used.contains(ip)) {
                candidate = candidate.add(BigInteger.ONE);
            } else {
                return Optional.of(ip);
            }
        }
        return Optional.empty();
    }

    /** An address and the transaction that claims it. */
    private record Claim(InetAddress ip, Transaction transaction) {
    }
}
