package dev.ovnj.spring;

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

        /** Creates empty settings. */
        public Database() {
        }

        /** The remotes parse and an {@code ssl:} remote has all three TLS files, or none is given. */
        void validate(String name, Errors errors) {
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

        /** Creates the defaults. */
        public Engine() {
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
