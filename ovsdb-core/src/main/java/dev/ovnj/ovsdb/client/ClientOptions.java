package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.typed.DatabaseModel;
import dev.ovnj.ovsdb.FrameLimits;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Immutable configuration of an {@link OvsdbClient}, made by {@link OvsdbClient.Builder}.
 *
 * @param remotes servers to try, in order (several for a cluster)
 * @param database database name, e.g. {@code OVN_Northbound}
 * @param tls TLS material for {@code ssl:} remotes
 * @param leaderOnly connect only to a clustered database's leader
 * @param monitor what to replicate into the cache
 * @param probeInterval inactivity probe interval; zero disables it
 * @param requestTimeout bound on every request (transact, monitor, get_schema)
 * @param connectTimeout bound on a TCP/TLS connection attempt
 * @param minBackoff first delay after every remote failed once
 * @param maxBackoff largest delay between rounds
 * @param frameLimits bounds on incoming messages
 * @param maxPendingRequests requests in flight per connection before new ones fail fast
 * @param model the typed model each server's schema is checked against, if any
 * @param compatibility what a server whose schema does not fit the model means
 * @param cacheAudit the mean period of the cache audit; zero disables it
 */
public record ClientOptions(List<Remote> remotes, String database, Optional<TlsConfig> tls, boolean leaderOnly,
                            MonitorRequest monitor, Duration probeInterval, Duration requestTimeout,
                            Duration connectTimeout, Duration minBackoff, Duration maxBackoff,
                            FrameLimits frameLimits, int maxPendingRequests, Optional<DatabaseModel> model,
                            Compatibility compatibility, Duration cacheAudit) {

    /**
     * Checks the values.
     *
     * @param compatibility what a server whose schema does not fit the model means
     * @param connectTimeout bound on a TCP/TLS connection attempt
     * @param database database name, e.g. {@code OVN_Northbound}
     * @param frameLimits bounds on incoming messages
     * @param leaderOnly connect only to a clustered database's leader
     * @param maxBackoff largest delay between rounds
     * @param maxPendingRequests requests in flight per connection before new ones fail fast
     * @param minBackoff first delay after every remote failed once
     * @param model the typed model each server's schema is checked against, if any
     * @param monitor what to replicate into the cache
     * @param probeInterval inactivity probe interval; zero disables it
     * @param remotes servers to try, in order (several for a cluster)
     * @param requestTimeout bound on every request (transact, monitor, get_schema)
     * @param tls TLS material for {@code ssl:} remotes
     * @param cacheAudit the mean period of the cache audit; zero disables it
     */
    public ClientOptions {
        remotes = List.copyOf(remotes);
        if (remotes.isEmpty()) {
            throw new IllegalArgumentException("at least one remote is needed");
        }
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(monitor, "monitor");
        if (remotes.stream().anyMatch(r -> r.kind() == Remote.Kind.SSL) && tls.isEmpty()) {
            throw new IllegalArgumentException("ssl: remote given without TLS key, certificate and CA certificate");
        }
        Objects.requireNonNull(frameLimits, "frameLimits");
        if (probeInterval.isNegative()) {
            throw new IllegalArgumentException("probeInterval must be zero (disabled) or positive, got " + probeInterval);
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive (a request must be able to complete), got " + requestTimeout);
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("connectTimeout must be positive, got " + connectTimeout);
        }
        if (minBackoff.isNegative() || maxBackoff.compareTo(minBackoff) < 0) {
            throw new IllegalArgumentException("backoff must satisfy 0 <= min <= max, got " + minBackoff + ".." + maxBackoff);
        }
        if (maxPendingRequests <= 0) {
            throw new IllegalArgumentException("maxPendingRequests must be positive: " + maxPendingRequests);
        }
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(compatibility, "compatibility");
        if (cacheAudit == null || cacheAudit.isNegative() || !cacheAudit.isZero() && cacheAudit.toMillis() < 1) {
            throw new IllegalArgumentException("cacheAudit must be zero (disabled) or at least 1 ms, got " + cacheAudit);
        }
        if (model.isPresent() && !model.get().name().equals(database)) {
            throw new IllegalArgumentException("the model is of database " + model.get().name() + ", not " + database);
        }
    }
}
