package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.IpRange;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.nb.model.Nat;
import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Condition;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.Wait;
import dev.ovnj.ovsdb.tx.WaitTimedOutException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Hands out free external IPs from the network of a Logical_Router_Port, recording each as an
 * {@link EipClaim} in that port's {@code external_ids}.
 *
 * <p>Claims are idempotent: the claim key is the request's owner on its port and family. When
 * the owner already holds an address of that family on that port, {@link #allocate} returns it
 * without writing anything, so a controller that allocates on every start (or every reconcile)
 * keeps its address across restarts and across processes, because the claim is read from the
 * database, not remembered by the allocator. When the owner holds several such addresses (claims
 * made before allocation was idempotent), the lowest is returned and the others stay claimed until
 * released. A held address is returned even when the request now excludes it: exclusions govern
 * new allocations only, and moving an owner's address silently is what idempotency prevents;
 * release it ({@link #release(EipRequest)}) to have a new one chosen. A held address that no
 * longer lies in any of the port's networks of the family (the port was renumbered) fails the
 * allocation with an {@link IllegalStateException} naming it, for the same reason: release stays
 * explicit.
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
     * Returns the address the request's owner holds on the port in the family, or else claims a
     * free one.
     *
     * @param request the port, owner (the claim key), family and exclusions
     * @return the held address, or the newly claimed one once the claim is committed and in the
     *     client's cache; fails with {@link EipExhaustedException} when no address is free,
     *     {@link EipConflictException} when every attempt raced with a concurrent change,
     *     {@link IllegalArgumentException} when the port does not exist or has no network of the
     *     family, {@link IllegalStateException} when the owner's held address lies outside the
     *     port's networks, or the client's transaction errors
     */
    public CompletableFuture<InetAddress> allocate(EipRequest request) {
        return attempt(request, 1);
    }

    /**
     * Returns the address the request's owner holds, or else claims a free one, blocking.
     *
     * @param request the port, owner (the claim key), family and exclusions
     * @param timeout how long to wait; on timeout the claim may still be committed later
     * @return the claimed address
     * @throws EipExhaustedException when no address is free
     * @throws EipConflictException when every attempt raced with a concurrent change
     * @throws IllegalStateException when the owner's held address lies outside the port's networks
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
        List<EipClaim> held = EipSnapshot.read(client.cache()).claims().stream()
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
     * Removes the claims {@link #allocate} would return for a request: every address of the
     * request's family that its owner holds on its port. Each claim is deleted as key and owner
     * together, so an address meanwhile released and claimed by another owner is left alone.
     *
     * @param request the port, owner and family; exclusions are ignored
     * @return true once a claim was removed and the cache shows it, false when the owner held none
     */
    public CompletableFuture<Boolean> release(EipRequest request) {
        List<EipClaim> held = EipSnapshot.read(client.cache()).claims().stream()
                .filter(c -> holds(c, request)).toList();
        if (held.isEmpty()) {
            return CompletableFuture.completedFuture(false);
        }
        Map<String, String> entries = new TreeMap<>();
        held.forEach(c -> entries.put(EipClaim.key(c.ip()), c.owner()));
        Transaction tx = client.transaction()
                .add(Operations.mutate(LogicalRouterPort.TABLE.name())
                        .where(LogicalRouterPort.NAME.eq(request.port()))
                        .mutation(LogicalRouterPort.EXTERNAL_IDS.deleteEntries(entries)))
                .build();
        return client.transact(tx).thenApply(result -> true);
    }

    /**
     * Removes the claims {@link #allocate} would return for a request, blocking.
     *
     * @param request the port, owner and family; exclusions are ignored
     * @param timeout how long to wait
     * @return true when a claim was removed, false when the owner held none
     */
    public boolean releaseAndWait(EipRequest request, Duration timeout) {
        return Blocking.await(release(request), timeout, "EIP release for " + request.owner() + " on " + request.port());
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
        if (claim.transaction().isEmpty()) {
            return CompletableFuture.completedFuture(claim.ip());
        }
        return client.transact(claim.transaction().get()).handle((result, error) -> {
            if (error == null) {
                return CompletableFuture.completedFuture(claim.ip());
            }
            Throwable cause = Futures.unwrap(error);
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
        EipSnapshot nb = EipSnapshot.read(client.cache());
        LogicalRouterPort port = nb.port(request.port())
                .orElseThrow(() -> new IllegalArgumentException("no Logical_Router_Port named " + request.port()));
        List<IpNetwork> networks = port.networks().stream().map(IpNetwork::parse)
                .filter(n -> n.family() == request.family()).toList();
        if (networks.isEmpty()) {
            throw new IllegalArgumentException("Logical_Router_Port " + request.port() + " has no "
                    + request.family() + " network in " + port.networks());
        }
        Optional<InetAddress> held = held(nb, request, networks);
        if (held.isPresent()) {
            return new Claim(held.get(), Optional.empty());
        }
        IpNetwork network = networks.get(0);
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
        return new Claim(ip, Optional.of(tx));
    }

    /**
     * The lowest address the owner already holds on the port in one of its networks of the
     * family; fails when every address the owner holds there lies outside them.
     */
    private static Optional<InetAddress> held(EipSnapshot nb, EipRequest request, List<IpNetwork> networks) {
        List<InetAddress> held = nb.claims().stream().filter(c -> holds(c, request)).map(EipClaim::ip)
                .sorted(Comparator.comparing(IpAddresses::toInteger)).toList();
        Optional<InetAddress> inNetwork = held.stream().filter(ip -> networks.stream().anyMatch(n -> n.contains(ip))).findFirst();
        if (inNetwork.isEmpty() && !held.isEmpty()) {
            throw new IllegalStateException(request.owner() + " holds " + held.stream().map(IpAddresses::format).toList()
                    + " on Logical_Router_Port " + request.port() + ", outside its " + request.family() + " networks "
                    + networks + "; release the claim to allocate a new address");
        }
        return inNetwork;
    }

    /** Whether a claim is one the request's claim key (owner, port, family) holds. */
    private static boolean holds(EipClaim claim, EipRequest request) {
        return claim.owner().equals(request.owner()) && claim.port().equals(request.port())
                && IpFamily.of(claim.ip()) == request.family();
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

    /** An address and the transaction that claims it, none when the owner already holds it. */
    private record Claim(InetAddress ip, Optional<Transaction> transaction) {
    }
}
