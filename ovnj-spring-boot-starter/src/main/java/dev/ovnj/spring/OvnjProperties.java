package dev.ovnj.spring;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The {@code ovnj.*} properties of application.yaml. */
@ConfigurationProperties("ovnj")
public class OvnjProperties {
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
