package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.IpRange;
import dev.ovnj.nb.model.LogicalRouterPort;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;

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
 * <p>Batches: requests are queued and claimed together, one transaction for everything queued
 * while the previous one was in flight, so an allocator never races with itself however many
 * requests arrive at once. What it decides from is an index kept up to date from the client's
 * update batches: one allocation costs a few hash lookups, not a read of every
 * claim and VIP.
 *
 * <p>Concurrency with other processes: a batch's transaction first {@code wait}s, with timeout 0,
 * for the {@code networks} and {@code external_ids} of each port it claims on to be exactly as the
 * batch read them (from the cache, once per batch), then inserts the claims. A claim another
 * allocator made in between (even for the same owner), or a renumbered port, fails the
 * transaction with "timed out" instead of handing an address out twice or giving an owner two;
 * the allocator then waits for its cache to catch up and plans the whole batch again, up to a
 * bounded number of attempts. Only the claimed ports are guarded, not every NAT rule and VIP:
 * those change with every endpoint (the same process's load balancers included), and a writer
 * that puts a VIP or NAT rule on an address without claiming it would collide with claims made
 * long before just the same.
 */
public final class EipAllocator implements AutoCloseable {
    /** Attempts per batch when none is given. */
    public static final int DEFAULT_MAX_ATTEMPTS = 10;

    private final OvsdbClient client;
    private final int maxAttempts;
    private final EipIndex index;
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong transactions = new AtomicLong();
    private final Object queueLock = new Object();
    private List<Pending> queue = new ArrayList<>();
    private boolean running;
    /** Where the lowest free address of a network (for one exclude list) may be; used by one batch at a time. */
    private final Map<HintKey, Hint> hints = new HashMap<>();

    /**
     * Creates an allocator with {@link #DEFAULT_MAX_ATTEMPTS}.
     *
     * @param client a client monitoring Logical_Router_Port, NAT and Load_Balancer (and, for
     *     {@link EipView}, Logical_Router and Logical_Switch)
     */
    public EipAllocator(OvsdbClient client) {
        this(client, DEFAULT_MAX_ATTEMPTS);
    }

    /**
     * Creates an allocator.
     *
     * @param client a client monitoring the tables listed for {@link #EipAllocator(OvsdbClient)}
     * @param maxAttempts how many transactions one batch of claims may try before giving up, at least 1
     */
    public EipAllocator(OvsdbClient client, int maxAttempts) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
        this.client = client;
        this.maxAttempts = maxAttempts;
        this.index = new EipIndex(client.cache());
    }

    /**
     * Returns the address the request's owner holds on the port in the family, or else claims a
     * free one.
     *
     * @param request the port, owner (the claim key), family and exclusions
     * @return the held address, or the newly claimed one once the claim is committed; fails with
     *     {@link EipExhaustedException} when no address is free, {@link EipConflictException} when
     *     every attempt raced with another process's claim, {@link IllegalArgumentException} when
     *     the port does not exist or has no network of the family, {@link IllegalStateException}
     *     when the owner's held address lies outside the port's networks, or the client's
     *     transaction errors
     */
    public CompletableFuture<InetAddress> allocate(EipRequest request) {
        return submit(new Pending(request, Optional.empty(), new CompletableFuture<>()));
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
     * Claims one given address of the request's port for its owner, in the same batches as
     * {@link #allocate}. The request's family and exclusions are not consulted: the address
     * says its family, and an address asked for by name is not excluded. Other addresses the
     * owner holds stay claimed.
     *
     * @param request the port and owner
     * @param address the address wanted
     * @return the address once claimed (at once when the owner already holds it); fails with
     *     {@link EipClaimedException} when another owner claims it or the router uses it,
     *     {@link IllegalArgumentException} when the port does not exist or no network of it
     *     contains the address, {@link EipConflictException} as for {@link #allocate}
     */
    public CompletableFuture<InetAddress> claim(EipRequest request, InetAddress address) {
        return submit(new Pending(request, Optional.of(address), new CompletableFuture<>()));
    }

    /**
     * The addresses an owner holds on a port, of either family, lowest first, from the index (no
     * claim map is read).
     *
     * @param port the Logical_Router_Port's name
     * @param owner the owner
     * @return the addresses, empty when none
     */
    public List<InetAddress> held(String port, String owner) {
        return index.held(port, owner);
    }

    /**
     * The owners with at least one claim on a port.
     *
     * @param port the Logical_Router_Port's name
     * @return the owners, each once
     */
    public Set<String> owners(String port) {
        return index.owners(port);
    }

    /**
     * The owners claiming an address, on any port, from the index.
     *
     * @param ip the address
     * @return the owners, empty when it is unclaimed
     */
    public List<String> holders(InetAddress ip) {
        return List.copyOf(index.claimsOf(ip).values());
    }

    /**
     * Hands every claim an owner holds on a port to another owner in one transaction, so that the
     * addresses stay claimed throughout. The transaction first waits (timeout 0) for the claims
     * to be as read, so one meanwhile released or handed elsewhere fails it rather than being
     * claimed anew.
     *
     * @param port the Logical_Router_Port's name
     * @param from the current owner
     * @param to the new owner
     * @return true once handed over, false when {@code from} held nothing there
     */
    public CompletableFuture<Boolean> transfer(String port, String from, String to) {
        List<InetAddress> held = index.held(port, from);
        if (held.isEmpty()) {
            return CompletableFuture.completedFuture(false);
        }
        Map<String, String> old = new TreeMap<>();
        Map<String, String> now = new TreeMap<>();
        held.forEach(ip -> {
            old.put(EipClaim.key(ip), from);
            now.put(EipClaim.key(ip), to);
        });
        Condition named = LogicalRouterPort.NAME.eq(port);
        Transaction tx = client.transaction()
                .add(Operations.wait(LogicalRouterPort.TABLE.name()).where(named, LogicalRouterPort.EXTERNAL_IDS.includes(old))
                        .columns("name").until(Wait.Until.EQ).timeout(0).row(Map.of("name", port)))
                .add(Operations.mutate(LogicalRouterPort.TABLE.name()).where(named)
                        .mutation(LogicalRouterPort.EXTERNAL_IDS.deleteEntries(old)))
                .add(Operations.mutate(LogicalRouterPort.TABLE.name()).where(named)
                        .mutation(LogicalRouterPort.EXTERNAL_IDS.insert(now)))
                .build();
        return client.transact(tx).thenApply(result -> {
            Map<InetAddress, String> claims = new LinkedHashMap<>();
            held.forEach(ip -> claims.put(ip, to));
            index.claimed(port, claims);
            return true;
        });
    }

    /**
     * The parseable networks of a port, from the index.
     *
     * @param port the Logical_Router_Port's name
     * @return its networks, empty when there is no such port
     */
    public List<IpNetwork> networks(String port) {
        return index.port(port).map(EipIndex.PortState::parsed).orElse(List.of());
    }

    /**
     * Removes every claim of an address. The address is free again unless a NAT rule or VIP
     * still uses it.
     *
     * @param ip an IPv4 or IPv6 literal
     * @return true once a claim was removed, false when there was none
     */
    public CompletableFuture<Boolean> release(String ip) {
        InetAddress address;
        try {
            address = IpAddresses.parse(ip);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        Map<String, String> held = index.claimsOf(address);
        if (held.isEmpty()) {
            return CompletableFuture.completedFuture(false);
        }
        Transaction.Builder tx = client.transaction();
        for (String port : held.keySet()) {
            tx.add(Operations.mutate(LogicalRouterPort.TABLE.name())
                    .where(LogicalRouterPort.NAME.eq(port))
                    .mutation(LogicalRouterPort.EXTERNAL_IDS.delete(EipClaim.key(address))));
        }
        return client.transact(tx.build()).thenApply(result -> {
            held.keySet().forEach(port -> index.released(port, Set.of(address)));
            return true;
        });
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
     * @return true once a claim was removed, false when the owner held none
     */
    public CompletableFuture<Boolean> release(EipRequest request) {
        List<InetAddress> held = index.held(request.port(), request.owner()).stream()
                .filter(ip -> IpFamily.of(ip) == request.family()).toList();
        if (held.isEmpty()) {
            return CompletableFuture.completedFuture(false);
        }
        Map<String, String> entries = new TreeMap<>();
        held.forEach(ip -> entries.put(EipClaim.key(ip), request.owner()));
        Transaction tx = client.transaction()
                .add(Operations.mutate(LogicalRouterPort.TABLE.name())
                        .where(LogicalRouterPort.NAME.eq(request.port()))
                        .mutation(LogicalRouterPort.EXTERNAL_IDS.deleteEntries(entries)))
                .build();
        return client.transact(tx).thenApply(result -> {
            index.released(request.port(), Set.copyOf(held));
            return true;
        });
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
     * Counts the batches planned again after another process's claim or a renumbered port
     * refused their transaction, across the life of this allocator.
     *
     * @return the number of retries so far
     */
    public long retries() {
        return retries.get();
    }

    /**
     * Counts the claim transactions sent (each claiming a whole batch), across the life of this
     * allocator.
     *
     * @return the number of claim transactions so far
     */
    public long transactions() {
        return transactions.get();
    }

    /** Stops following the client's updates; the allocator must not be used afterwards. */
    @Override
    public void close() {
        index.close();
    }

    private CompletableFuture<InetAddress> submit(Pending pending) {
        boolean start;
        synchronized (queueLock) {
            queue.add(pending);
            start = !running;
            running = true;
        }
        if (start) {
            // Planned off the caller's thread: the caller may be a client's callback.
            CompletableFuture.runAsync(this::nextBatch);
        }
        return pending.future();
    }

    /** Claims everything queued, then looks for more; only one batch is ever in flight. */
    private void nextBatch() {
        List<Pending> batch;
        synchronized (queueLock) {
            if (queue.isEmpty()) {
                running = false;
                return;
            }
            batch = queue;
            queue = new ArrayList<>();
        }
        CompletableFuture<Void> done;
        try {
            done = attempt(batch, 1);
        } catch (RuntimeException e) {
            batch.forEach(p -> p.future().completeExceptionally(e));
            done = CompletableFuture.completedFuture(null);
        }
        done.whenCompleteAsync((ok, error) -> {
            if (error != null) {
                batch.forEach(p -> p.future().completeExceptionally(Futures.unwrap(error)));
            }
            nextBatch();
        });
    }

    private CompletableFuture<Void> attempt(List<Pending> batch, int attempt) {
        Plan plan = plan(batch);
        if (plan.claims().isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        transactions.incrementAndGet();
        return client.transact(plan.transaction(client)).handleAsync((result, error) -> {
            if (error == null) {
                plan.claims().forEach((port, claims) -> index.claimed(port, claims.entries()));
                plan.chosen().forEach((p, ip) -> p.future().complete(ip));
                return CompletableFuture.<Void>completedFuture(null);
            }
            hints.clear();
            List<Pending> open = List.copyOf(plan.chosen().keySet());
            Throwable cause = Futures.unwrap(error);
            if (!(cause instanceof WaitTimedOutException)) {
                open.forEach(p -> p.future().completeExceptionally(cause));
                return CompletableFuture.<Void>completedFuture(null);
            }
            if (attempt >= maxAttempts) {
                open.forEach(p -> p.future().completeExceptionally(new EipConflictException(p.request().port(), attempt, cause)));
                return CompletableFuture.<Void>completedFuture(null);
            }
            retries.incrementAndGet();
            // The other claim is committed; the reply to a later transaction comes after its
            // update, so the cache has it when the comment returns: re-read the ports from it.
            return client.transact(client.transaction().add(Operations.comment("ovnj EIP allocator catching up")).build())
                    .thenComposeAsync(caughtUp -> attempt(open, attempt + 1));
        }).thenCompose(Function.identity());
    }

    /**
     * Decides each request of the batch: those already held, or refused, are answered at once;
     * the others get distinct addresses to claim.
     */
    private Plan plan(List<Pending> batch) {
        Map<Pending, InetAddress> chosen = new LinkedHashMap<>();
        Map<String, PortClaims> claims = new LinkedHashMap<>();
        Map<InetAddress, String> taken = new HashMap<>();
        // The ports claimed on are read from the cache once per batch: the transaction's guard
        // is their row exactly as the batch was planned from.
        Map<String, EipIndex.PortState> read = new HashMap<>();
        batch.stream().map(p -> p.request().port()).distinct().forEach(port -> index.refresh(port).ifPresent(s -> read.put(port, s)));
        for (Pending p : batch) {
            try {
                Decision d = decide(p, read, taken);
                if (d.claim()) {
                    taken.put(d.ip(), p.request().owner());
                    claims.computeIfAbsent(p.request().port(), port -> new PortClaims(read.get(port), new LinkedHashMap<>()))
                            .entries().put(d.ip(), p.request().owner());
                    chosen.put(p, d.ip());
                } else {
                    p.future().complete(d.ip());
                }
            } catch (RuntimeException e) {
                p.future().completeExceptionally(e);
            }
        }
        return new Plan(chosen, claims);
    }

    private Decision decide(Pending p, Map<String, EipIndex.PortState> read, Map<InetAddress, String> taken) {
        EipRequest request = p.request();
        EipIndex.PortState port = Optional.ofNullable(read.get(request.port()))
                .orElseThrow(() -> new IllegalArgumentException("no Logical_Router_Port named " + request.port()));
        IpFamily family = p.wanted().map(IpFamily::of).orElse(request.family());
        List<IpNetwork> networks = port.networks(family);
        if (networks.isEmpty()) {
            throw new IllegalArgumentException("Logical_Router_Port " + request.port() + " has no "
                    + family + " network in " + port.networks());
        }
        List<InetAddress> held = index.held(request.port(), request.owner()).stream().filter(ip -> IpFamily.of(ip) == family).toList();
        if (p.wanted().isPresent()) {
            InetAddress ip = p.wanted().get();
            if (held.contains(ip) || request.owner().equals(taken.get(ip))) {
                return new Decision(ip, request.owner().equals(taken.get(ip)));
            }
            Optional<String> other = index.claimsOf(ip).values().stream().filter(o -> !o.equals(request.owner())).findFirst()
                    .or(() -> Optional.ofNullable(taken.get(ip)));
            if (other.isPresent()) {
                throw new EipClaimedException(ip, other.get());
            }
            if (networks.stream().noneMatch(n -> n.contains(ip))) {
                throw new IllegalArgumentException(IpAddresses.format(ip) + " is not in a network of router port " + request.port());
            }
            if (index.routerUses(ip)) {
                throw new EipClaimedException(ip, EipClaimedException.ROUTER);
            }
            return new Decision(ip, true);
        }
        Optional<InetAddress> inNetwork = held.stream().filter(ip -> networks.stream().anyMatch(n -> n.contains(ip))).findFirst();
        if (inNetwork.isPresent()) {
            return new Decision(inNetwork.get(), false);
        }
        if (!held.isEmpty()) {
            throw new IllegalStateException(request.owner() + " holds " + held.stream().map(IpAddresses::format).toList()
                    + " on Logical_Router_Port " + request.port() + ", outside its " + family + " networks "
                    + networks + "; release the claim to allocate a new address");
        }
        // The same owner twice in one batch: one claim, both answered with it.
        for (Map.Entry<InetAddress, String> t : taken.entrySet()) {
            if (t.getValue().equals(request.owner()) && IpFamily.of(t.getKey()) == family
                    && networks.stream().anyMatch(n -> n.contains(t.getKey()))) {
                return new Decision(t.getKey(), true);
            }
        }
        IpNetwork network = networks.get(0);
        HintKey key = new HintKey(request.port(), network, request.exclude());
        Hint hint = hints.get(key);
        long freed = index.freed();
        BigInteger from = hint != null && hint.freed() == freed ? hint.next() : IpAddresses.toInteger(network.hosts().first());
        InetAddress ip = firstFree(network, from, a -> index.used(a) || taken.containsKey(a), request.exclude())
                .orElseThrow(() -> new EipExhaustedException(network, request.port()));
        hints.put(key, new Hint(IpAddresses.toInteger(ip).add(BigInteger.ONE), freed));
        return new Decision(ip, true);
    }

    /**
     * The lowest host address of the network that is neither used nor excluded; whole excluded
     * ranges are stepped over, so the search is bounded by the number of used addresses and
     * ranges, not by the size of the network.
     */
    static Optional<InetAddress> firstFree(IpNetwork network, Set<InetAddress> used, List<IpRange> exclude) {
        return firstFree(network, IpAddresses.toInteger(network.hosts().first()), used::contains, exclude);
    }

    /** As {@link #firstFree(IpNetwork, Set, List)}, from {@code from} on (every lower host address known taken). */
    private static Optional<InetAddress> firstFree(IpNetwork network, BigInteger from, Predicate<InetAddress> used, List<IpRange> exclude) {
        IpRange hosts = network.hosts();
        int bits = IpAddresses.bits(network.address());
        BigInteger candidate = from;
        BigInteger end = IpAddresses.toInteger(hosts.last());
        while (candidate.compareTo(end) <= 0) {
            InetAddress ip = IpAddresses.fromInteger(candidate, bits);
            Optional<IpRange> excluded = exclude.stream().filter(r -> r.contains(ip)).findFirst();
            if (excluded.isPresent()) {
                candidate = IpAddresses.toInteger(excluded.get().last()).add(BigInteger.ONE);
            } else if (used.test(ip)) {
                candidate = candidate.add(BigInteger.ONE);
            } else {
                return Optional.of(ip);
            }
        }
        return Optional.empty();
    }

    /** A request waiting in the queue: an allocation, or a claim of the wanted address. */
    private record Pending(EipRequest request, Optional<InetAddress> wanted, CompletableFuture<InetAddress> future) {
        // Identity, not value, equality: two equal requests are two callers, each answered.
        @Override
        public boolean equals(Object o) {
            return this == o;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    /** The answer for one request: an address, and whether it still has to be claimed. */
    private record Decision(InetAddress ip, boolean claim) {
    }

    /** The claims planned on one port, and the port as read. */
    private record PortClaims(EipIndex.PortState port, Map<InetAddress, String> entries) {
    }

    /** A batch's claims by port, and the address each waiting request gets once they commit. */
    private record Plan(Map<Pending, InetAddress> chosen, Map<String, PortClaims> claims) {
        /**
         * Per port: wait (timeout 0) for its {@code networks} and {@code external_ids} to be
         * exactly as planned from, then insert the claims, then wait for the row to include
         * every one of them with its owner. Another process's claim in between, even one for the
         * same owner, or a renumbered port fails the whole transaction; so does a planned address
         * that the index, behind the cache, showed free (the insert leaves a present key alone).
         */
        Transaction transaction(OvsdbClient client) {
            Transaction.Builder tx = client.transaction();
            for (PortClaims pc : claims.values()) {
                Map<String, String> entries = new TreeMap<>();
                pc.entries().forEach((ip, owner) -> entries.put(EipClaim.key(ip), owner));
                Condition port = Condition.eq("_uuid", pc.port().uuid());
                tx.add(Operations.wait(LogicalRouterPort.TABLE.name()).where(port)
                        .columns("networks", "external_ids").until(Wait.Until.EQ).timeout(0)
                        .row(Map.of("networks", LogicalRouterPort.NETWORKS.toUntyped(pc.port().networks()),
                                "external_ids", LogicalRouterPort.EXTERNAL_IDS.toUntyped(pc.port().externalIds()))));
                tx.add(Operations.mutate(LogicalRouterPort.TABLE.name()).where(port)
                        .mutation(LogicalRouterPort.EXTERNAL_IDS.insert(entries)));
                tx.add(Operations.wait(LogicalRouterPort.TABLE.name()).where(port, LogicalRouterPort.EXTERNAL_IDS.includes(entries))
                        .columns("networks").until(Wait.Until.EQ).timeout(0)
                        .row(Map.of("networks", LogicalRouterPort.NETWORKS.toUntyped(pc.port().networks()))));
            }
            return tx.build();
        }
    }

    private record HintKey(String port, IpNetwork network, List<IpRange> exclude) {
    }

    /** Every host address below {@code next} was taken when the index's freed count was {@code freed}. */
    private record Hint(BigInteger next, long freed) {
    }
}
