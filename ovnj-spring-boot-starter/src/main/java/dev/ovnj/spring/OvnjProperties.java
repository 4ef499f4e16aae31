package dev.ovnj.spring;

import dev.ovnj.lb.DeletionBudget;
import dev.ovnj.lb.EipPolicy;
import dev.ovnj.ovsdb.client.Remote;
import dev.ovnj.ovsdb.data.OvsdbId;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;
import org.springframework.validation.annotation.Validated;

/**
 * The {@code ovnj.*} properties of application.yaml, validated here (this class is its own
 * {@link Validator}) so that a bad value fails the start, before any client is built, with
 * {@link OvnjPropertiesFailureAnalyzer}'s analysis naming the property and what it accepts.
 * {@link OvnjPropertiesCheck} binds them this way, refusing unknown ones, as soon as the
 * environment is ready, with or without {@code ovnj.northbound.remotes}.
 */
@Validated
@ConfigurationProperties(prefix = "ovnj", ignoreUnknownFields = false)
public class OvnjProperties implements Validator {
    // The libraries' defaults that a check of a min against an unset max (or the reverse) needs.
    static final Duration DEFAULT_MIN_BACKOFF = Duration.ofMillis(100);
    static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(8);
    static final Duration DEFAULT_MIN_RETRY = Duration.ofMillis(20);
    static final Duration DEFAULT_MAX_RETRY = Duration.ofSeconds(2);

    private final Database northbound = new Database();
    private final Database southbound = new Database();
    private final Engine engine = new Engine();

    /** Creates the properties with their defaults. */
    public OvnjProperties() {
    }

    /**
     * The Northbound database.
     *
     * @return its settings
     */
    public Database getNorthbound() {
        return northbound;
    }

    /**
     * The Southbound database, optional: the engine then reads backend health from it.
     *
     * @return its settings
     */
    public Database getSouthbound() {
        return southbound;
    }

    /**
     * The load-balancer engine.
     *
     * @return its settings
     */
    public Engine getEngine() {
        return engine;
    }

    @Override
    public boolean supports(Class<?> type) {
        return OvnjProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        OvnjProperties p = (OvnjProperties) target;
        p.northbound.validate("northbound", errors);
        p.southbound.validate("southbound", errors);
        Duration timeout = p.engine.requestTimeout;
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            errors.rejectValue("engine.requestTimeout", "positive", "must be positive (a request must be able to complete)");
        }
        String lock = p.engine.lock;
        if (lock != null && !lock.isBlank()) {
            try {
                OvsdbId.require("lock name", lock);
            } catch (IllegalArgumentException e) {
                errors.rejectValue("engine.lock", "id", e.getMessage());
            }
        }
        p.engine.validate(errors);
    }

    /** Rejects a negative duration. */
    static void notNegative(Errors errors, String field, Duration value) {
        if (value != null && value.isNegative()) {
            errors.rejectValue(field, "notNegative", "must not be negative");
        }
    }

    /** Rejects a zero or negative duration. */
    static void positive(Errors errors, String field, Duration value, String why) {
        if (value != null && (value.isNegative() || value.isZero())) {
            errors.rejectValue(field, "positive", "must be positive (" + why + ")");
        }
    }

    /** Rejects a zero or negative count. */
    static void positive(Errors errors, String field, Integer value) {
        if (value != null && value < 1) {
            errors.rejectValue(field, "positive", "must be at least 1");
        }
    }

    /** Rejects a minimum above its maximum, each of which may be unset (the default then). */
    static void ordered(Errors errors, String prefix, Duration min, Duration max, Duration defaultMin, Duration defaultMax) {
        notNegative(errors, prefix + ".min", min);
        notNegative(errors, prefix + ".max", max);
        Duration lo = min == null ? defaultMin : min;
        Duration hi = max == null ? defaultMax : max;
        if (!lo.isNegative() && !hi.isNegative() && lo.compareTo(hi) > 0) {
            errors.rejectValue(prefix + (max == null ? ".min" : ".max"), "ordered", "min (" + lo + ") must not exceed max ("
                    + hi + ")" + (min == null || max == null ? ", the default of the other" : ""));
        }
    }

    /** A minimum and a maximum delay; either may be left unset for its default. */
    public static class Backoff {
        /** The first delay. */
        private Duration min;
        /** The largest delay; delays double from min up to it, with jitter. */
        private Duration max;

        /** Creates unset bounds (the defaults). */
        public Backoff() {
        }

        /**
         * The first delay.
         *
         * @return the delay, or null for the default
         */
        public Duration getMin() {
            return min;
        }

        /**
         * Sets the first delay.
         *
         * @param min the delay
         */
        public void setMin(Duration min) {
            this.min = min;
        }

        /**
         * The largest delay.
         *
         * @return the delay, or null for the default
         */
        public Duration getMax() {
            return max;
        }

        /**
         * Sets the largest delay.
         *
         * @param max the delay
         */
        public void setMax(Duration max) {
            this.max = max;
        }
    }

    /** How to reach one database. */
    public static class Database {
        /** OVSDB remotes, comma-separated (tcp:IP:PORT, ssl:IP:PORT, unix:PATH); a cluster's leader is used. */
        private String remotes;
        /** Private key (PEM) for ssl: remotes. */
        private Path privateKey;
        /** Certificate (PEM) for ssl: remotes. */
        private Path certificate;
        /** CA certificate (PEM) for ssl: remotes. */
        private Path caCert;
        /** Use only a clustered database's leader (default true, as ovn-nbctl); false accepts any member or relay. */
        private Boolean leaderOnly;
        /** Inactivity probe interval (default 5s); 0 disables the probe. */
        private Duration probeInterval;
        /** Bound on each connection attempt (default 5s). */
        private Duration connectTimeout;
        /** Bound on each request to the server: transact, monitor, get_schema (default 30s). */
        private Duration requestTimeout;
        /** Mean period of the cache audit against the server (default 5m); 0 disables it. */
        private Duration cacheAudit;
        /** Delay between reconnection rounds (default 100ms doubling up to 8s, with jitter). */
        private final Backoff reconnectBackoff = new Backoff();

        /** Creates empty settings. */
        public Database() {
        }

        /**
         * The remotes parse, an {@code ssl:} remote has all three TLS files, or none is given, and
         * the connection settings are in range.
         */
        void validate(String name, Errors errors) {
            notNegative(errors, name + ".probeInterval", probeInterval);
            positive(errors, name + ".connectTimeout", connectTimeout, "a connection attempt must be able to complete");
            positive(errors, name + ".requestTimeout", requestTimeout, "a request must be able to complete");
            notNegative(errors, name + ".cacheAudit", cacheAudit);
            if (cacheAudit != null && !cacheAudit.isZero() && !cacheAudit.isNegative() && cacheAudit.toMillis() < 1) {
                errors.rejectValue(name + ".cacheAudit", "cacheAudit", "must be 0 (disabled) or at least 1ms");
            }
            ordered(errors, name + ".reconnectBackoff", reconnectBackoff.min, reconnectBackoff.max,
                    DEFAULT_MIN_BACKOFF, DEFAULT_MAX_BACKOFF);
            if (remotes != null) {
                try {
                    Remote.parseList(remotes);
                } catch (IllegalArgumentException e) {
                    errors.rejectValue(name + ".remotes", "remote", e.getMessage());
                    return;
                }
            }
            boolean any = privateKey != null || certificate != null || caCert != null;
            boolean all = privateKey != null && certificate != null && caCert != null;
            if (any && !all) {
                errors.rejectValue(name + (privateKey == null ? ".privateKey" : certificate == null ? ".certificate" : ".caCert"),
                        "tls", "TLS needs all of private-key, certificate and ca-cert");
            } else if (!any && remotes != null && remotes.contains("ssl:")) {
                errors.rejectValue(name + ".privateKey", "tls", "ssl: remotes need private-key, certificate and ca-cert");
            }
        }

        /**
         * The remotes.
         *
         * @return the remotes, or null
         */
        public String getRemotes() {
            return remotes;
        }

        /**
         * Sets the remotes.
         *
         * @param remotes the remotes
         */
        public void setRemotes(String remotes) {
            this.remotes = remotes;
        }

        /**
         * The private key.
         *
         * @return the file, or null
         */
        public Path getPrivateKey() {
            return privateKey;
        }

        /**
         * Sets the private key.
         *
         * @param privateKey the file
         */
        public void setPrivateKey(Path privateKey) {
            this.privateKey = privateKey;
        }

        /**
         * The certificate.
         *
         * @return the file, or null
         */
        public Path getCertificate() {
            return certificate;
        }

        /**
         * Sets the certificate.
         *
         * @param certificate the file
         */
        public void setCertificate(Path certificate) {
            this.certificate = certificate;
        }

        /**
         * The CA certificate.
         *
         * @return the file, or null
         */
        public Path getCaCert() {
            return caCert;
        }

        /**
         * Sets the CA certificate.
         *
         * @param caCert the file
         */
        public void setCaCert(Path caCert) {
            this.caCert = caCert;
        }

        /**
         * Whether only a cluster's leader is used.
         *
         * @return the setting, or null for the client's default (true)
         */
        public Boolean getLeaderOnly() {
            return leaderOnly;
        }

        /**
         * Sets whether only a cluster's leader is used.
         *
         * @param leaderOnly false to accept any member or relay
         */
        public void setLeaderOnly(Boolean leaderOnly) {
            this.leaderOnly = leaderOnly;
        }

        /**
         * The inactivity probe interval.
         *
         * @return the interval, or null for the client's default
         */
        public Duration getProbeInterval() {
            return probeInterval;
        }

        /**
         * Sets the inactivity probe interval.
         *
         * @param probeInterval the interval; zero disables the probe
         */
        public void setProbeInterval(Duration probeInterval) {
            this.probeInterval = probeInterval;
        }

        /**
         * The bound on each connection attempt.
         *
         * @return the bound, or null for the client's default
         */
        public Duration getConnectTimeout() {
            return connectTimeout;
        }

        /**
         * Sets the bound on each connection attempt.
         *
         * @param connectTimeout the bound
         */
        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        /**
         * The bound on each request.
         *
         * @return the bound, or null for the client's default
         */
        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        /**
         * Sets the bound on each request.
         *
         * @param requestTimeout the bound
         */
        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }

        /**
         * The mean period of the cache audit.
         *
         * @return the period, or null for the client's default
         */
        public Duration getCacheAudit() {
            return cacheAudit;
        }

        /**
         * Sets the mean period of the cache audit.
         *
         * @param cacheAudit the period; zero disables the audit
         */
        public void setCacheAudit(Duration cacheAudit) {
            this.cacheAudit = cacheAudit;
        }

        /**
         * The delays between reconnection rounds.
         *
         * @return the bounds (never null; unset ones are the client's defaults)
         */
        public Backoff getReconnectBackoff() {
            return reconnectBackoff;
        }
    }

    /**
     * How much of an owner's rows one {@code apply} may delete before the deletions are held,
     * see {@link DeletionBudget}: more than {@code share} of them and more than {@code minRows}
     * (default 0.5 and 5), or no limit with {@code unlimited}.
     */
    public static class Budget {
        /** The fraction of the owner's rows an apply may delete, 0 to 1 (default 0.5). */
        private Double share;
        /** Deleting this many rows or fewer is always allowed (default 5). */
        private Integer minRows;
        /** No budget: every deletion is made at once (default false). */
        private boolean unlimited;

        /** Creates unset settings (the engine's default budget). */
        public Budget() {
        }

        /**
         * The share.
         *
         * @return the fraction, or null for the default
         */
        public Double getShare() {
            return share;
        }

        /**
         * Sets the share.
         *
         * @param share the fraction, 0 to 1
         */
        public void setShare(Double share) {
            this.share = share;
        }

        /**
         * The rows always allowed.
         *
         * @return the count, or null for the default
         */
        public Integer getMinRows() {
            return minRows;
        }

        /**
         * Sets the rows always allowed.
         *
         * @param minRows the count, 0 or more
         */
        public void setMinRows(Integer minRows) {
            this.minRows = minRows;
        }

        /**
         * Whether deletions are unlimited.
         *
         * @return true for no budget
         */
        public boolean isUnlimited() {
            return unlimited;
        }

        /**
         * Sets whether deletions are unlimited.
         *
         * @param unlimited true for no budget
         */
        public void setUnlimited(boolean unlimited) {
            this.unlimited = unlimited;
        }
    }

    /** The engine's settings. */
    public static class Engine {
        /** Whether to create a LoadBalancerEngine at all. */
        private boolean enabled = true;
        /** The owner whose load balancers the health indicator counts by state (optional). */
        private String owner;
        /** OVSDB lock for active/standby replicas: only the holder writes (optional). */
        private String lock;
        /** Bound on every apply/upsert/remove future. */
        private Duration requestTimeout = Duration.ofSeconds(30);
        /** How long an idle engine waits for more changes before writing them in one transaction (default 0: at once). */
        private Duration batchWindow;
        /** What to do with a router-attached VIP outside the router's port networks: WARN (default) or REJECT. */
        private EipPolicy eipPolicy;
        /** Whether each owner's rows are written only while this engine holds the owner's OVSDB lock (default true). */
        private Boolean ownerLocks;
        /** Soft limit of operations per transaction (default 1000). */
        private Integer maxOpsPerTransaction;
        /** Requests that may wait for the database at once before new ones fail fast (default 10000). */
        private Integer maxPendingRequests;
        /** How long one step of the engine loop may run before the engine reports itself stalled (default 10s). */
        private Duration stallTimeout;
        /** Per-spec retry delay after retriable failures (default 20ms doubling up to 2s, with jitter). */
        private final Backoff retryBackoff = new Backoff();
        /** How much of an owner's rows one apply may delete before the deletions are held. */
        private final Budget deletionBudget = new Budget();

        /** Creates the defaults. */
        public Engine() {
        }

        void validate(Errors errors) {
            notNegative(errors, "engine.batchWindow", batchWindow);
            positive(errors, "engine.maxOpsPerTransaction", maxOpsPerTransaction);
            positive(errors, "engine.maxPendingRequests", maxPendingRequests);
            positive(errors, "engine.stallTimeout", stallTimeout, "a stalled loop must be noticed");
            ordered(errors, "engine.retryBackoff", retryBackoff.min, retryBackoff.max, DEFAULT_MIN_RETRY, DEFAULT_MAX_RETRY);
            Double share = deletionBudget.share;
            if (share != null && !(share >= 0 && share <= 1)) {
                errors.rejectValue("engine.deletionBudget.share", "share", "must be between 0 and 1 (a fraction of the owner's rows)");
            }
            Integer minRows = deletionBudget.minRows;
            if (minRows != null && minRows < 0) {
                errors.rejectValue("engine.deletionBudget.minRows", "minRows", "must not be negative");
            }
            if (deletionBudget.unlimited && (share != null || minRows != null)) {
                errors.rejectValue("engine.deletionBudget.unlimited", "unlimited", "an unlimited budget takes no share or min-rows");
            }
        }

        /**
         * The deletion budget these settings give.
         *
         * @return the budget, or empty when none of its properties is set (the engine's default)
         */
        java.util.Optional<DeletionBudget> deletionBudget() {
            Budget b = deletionBudget;
            if (b.unlimited) {
                return java.util.Optional.of(DeletionBudget.unlimited());
            }
            if (b.share == null && b.minRows == null) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(new DeletionBudget(b.share == null ? DeletionBudget.DEFAULT.share() : b.share,
                    b.minRows == null ? DeletionBudget.DEFAULT.minRows() : b.minRows));
        }

        /**
         * The batch window.
         *
         * @return the window, or null for the engine's default
         */
        public Duration getBatchWindow() {
            return batchWindow;
        }

        /**
         * Sets the batch window.
         *
         * @param batchWindow the coalescing window, zero or positive
         */
        public void setBatchWindow(Duration batchWindow) {
            this.batchWindow = batchWindow;
        }

        /**
         * The EIP policy.
         *
         * @return the policy, or null for the engine's default
         */
        public EipPolicy getEipPolicy() {
            return eipPolicy;
        }

        /**
         * Sets the EIP policy.
         *
         * @param eipPolicy warn or reject
         */
        public void setEipPolicy(EipPolicy eipPolicy) {
            this.eipPolicy = eipPolicy;
        }

        /**
         * Whether owner locks are used.
         *
         * @return the setting, or null for the engine's default
         */
        public Boolean getOwnerLocks() {
            return ownerLocks;
        }

        /**
         * Sets whether owner locks are used.
         *
         * @param ownerLocks false to write without owner locks
         */
        public void setOwnerLocks(Boolean ownerLocks) {
            this.ownerLocks = ownerLocks;
        }

        /**
         * The soft limit of operations per transaction.
         *
         * @return the limit, or null for the engine's default
         */
        public Integer getMaxOpsPerTransaction() {
            return maxOpsPerTransaction;
        }

        /**
         * Sets the soft limit of operations per transaction.
         *
         * @param maxOpsPerTransaction the limit, at least 1
         */
        public void setMaxOpsPerTransaction(Integer maxOpsPerTransaction) {
            this.maxOpsPerTransaction = maxOpsPerTransaction;
        }

        /**
         * The limit of requests waiting for the database.
         *
         * @return the limit, or null for the engine's default
         */
        public Integer getMaxPendingRequests() {
            return maxPendingRequests;
        }

        /**
         * Sets the limit of requests waiting for the database.
         *
         * @param maxPendingRequests the limit, at least 1
         */
        public void setMaxPendingRequests(Integer maxPendingRequests) {
            this.maxPendingRequests = maxPendingRequests;
        }

        /**
         * The stall timeout.
         *
         * @return the bound, or null for the engine's default
         */
        public Duration getStallTimeout() {
            return stallTimeout;
        }

        /**
         * Sets the stall timeout.
         *
         * @param stallTimeout the bound, positive
         */
        public void setStallTimeout(Duration stallTimeout) {
            this.stallTimeout = stallTimeout;
        }

        /**
         * The per-spec retry backoff.
         *
         * @return the bounds (never null; unset ones are the engine's defaults)
         */
        public Backoff getRetryBackoff() {
            return retryBackoff;
        }

        /**
         * The deletion budget.
         *
         * @return its settings (never null; unset ones are the engine's defaults)
         */
        public Budget getDeletionBudget() {
            return deletionBudget;
        }

        /**
         * Whether the engine is created.
         *
         * @return true by default
         */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether the engine is created.
         *
         * @param enabled whether
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * The owner counted by the health indicator.
         *
         * @return the owner, or null
         */
        public String getOwner() {
            return owner;
        }

        /**
         * Sets the owner counted by the health indicator.
         *
         * @param owner the owner
         */
        public void setOwner(String owner) {
            this.owner = owner;
        }

        /**
         * The OVSDB lock.
         *
         * @return the lock name, or null
         */
        public String getLock() {
            return lock;
        }

        /**
         * Sets the OVSDB lock.
         *
         * @param lock the lock name
         */
        public void setLock(String lock) {
            this.lock = lock;
        }

        /**
         * The request timeout.
         *
         * @return the bound
         */
        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        /**
         * Sets the request timeout.
         *
         * @param requestTimeout the bound
         */
        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }
    }
}
