package dev.ovnj.spring;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.micrometer.LoadBalancerEngineMetrics;
import dev.ovnj.micrometer.OvsdbClientMetrics;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.client.TlsConfig;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Makes, when {@code ovnj.northbound.remotes} is set: the Northbound {@link OvsdbClient} (bean
 * {@code ovnjNorthbound}, replicating what the engine needs, started without blocking the
 * application's start; it connects and reconnects in the background), a Southbound client when
 * {@code ovnj.southbound.remotes} is set, a started {@link LoadBalancerEngine}, their Micrometer
 * binders (bound by Spring Boot's metrics auto-configuration to every registry; the client meters
 * of each database carry its {@code database} tag), and with Actuator an
 * {@link OvnjHealthIndicator} (component {@code ovnj}) and, with a Southbound client, an
 * {@link OvnjSouthboundHealthIndicator} (component {@code ovnjSouthbound}). Each bean backs off
 * when the application defines its own (of the same name for the clients, their meters and the
 * Southbound indicator; of the same type otherwise). Every {@code ovnj.*} property left unset
 * keeps the library's default.
 */
@AutoConfiguration
@EnableConfigurationProperties(OvnjProperties.class)
@ConditionalOnProperty(prefix = "ovnj.northbound", name = "remotes")
public class OvnjAutoConfiguration {

    /** Creates the configuration. */
    public OvnjAutoConfiguration() {
    }

    /**
     * The Northbound client.
     *
     * @param properties the ovnj properties
     * @return a started client
     */
    @Bean(name = "ovnjNorthbound", destroyMethod = "close")
    @ConditionalOnMissingBean(name = "ovnjNorthbound")
    public OvsdbClient ovnjNorthbound(OvnjProperties properties) {
        OvsdbClient client = client(properties.getNorthbound(), "OVN_Northbound")
                .monitor(LoadBalancerEngine.monitorRequest()).build();
        client.start();
        return client;
    }

    /**
     * The engine on the Northbound client, reading backend health from the Southbound client when there is one.
     *
     * @param properties the ovnj properties
     * @param northbound the Northbound client
     * @param southbound the Southbound client, if configured
     * @return a started engine
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "ovnj.engine", name = "enabled", matchIfMissing = true)
    public LoadBalancerEngine ovnjEngine(OvnjProperties properties, @Qualifier("ovnjNorthbound")
            OvsdbClient northbound, @Qualifier("ovnjSouthbound")
            ObjectProvider<OvsdbClient> southbound) {
        OvnjProperties.Engine engine = properties.getEngine();
        LoadBalancerEngine.Builder b = LoadBalancerEngine.builder(northbound).requestTimeout(engine.getRequestTimeout());
        Optional.ofNullable(engine.getLock()).filter(l -> !l.isBlank()).ifPresent(b::lock);
        Optional.ofNullable(engine.getBatchWindow()).ifPresent(b::batchWindow);
        Optional.ofNullable(engine.getEipPolicy()).ifPresent(b::eipPolicy);
        Optional.ofNullable(engine.getOwnerLocks()).ifPresent(b::ownerLocks);
        Optional.ofNullable(engine.getMaxOpsPerTransaction()).ifPresent(b::maxOpsPerTransaction);
        Optional.ofNullable(engine.getMaxPendingRequests()).ifPresent(b::maxPendingRequests);
        Optional.ofNullable(engine.getStallTimeout()).ifPresent(b::stallTimeout);
        OvnjProperties.Backoff retry = engine.getRetryBackoff();
        if (retry.getMin() != null || retry.getMax() != null) {
            b.retryBackoff(Optional.ofNullable(retry.getMin()).orElse(OvnjProperties.DEFAULT_MIN_RETRY),
                    Optional.ofNullable(retry.getMax()).orElse(OvnjProperties.DEFAULT_MAX_RETRY));
        }
        engine.deletionBudget().ifPresent(b::deletionBudget);
        OvsdbClient sb = southbound.getIfAvailable();
        if (sb != null) {
            b.southbound(sb);
        }
        return b.build().start();
    }

    /**
     * The Northbound client's meters, tagged {@code database=OVN_Northbound}.
     *
     * @param northbound the Northbound client
     * @return its binder
     */
    @Bean
    @ConditionalOnMissingBean(name = "ovnjClientMetrics")
    public OvsdbClientMetrics ovnjClientMetrics(@Qualifier("ovnjNorthbound")
            OvsdbClient northbound) {
        return new OvsdbClientMetrics(northbound);
    }

    /**
     * The engine's meters.
     *
     * @param engine the engine
     * @return its binder
     */
    @Bean
    @ConditionalOnBean(LoadBalancerEngine.class)
    @ConditionalOnMissingBean
    public LoadBalancerEngineMetrics ovnjEngineMetrics(LoadBalancerEngine engine) {
        return new LoadBalancerEngineMetrics(engine);
    }

    /**
     * The Southbound client, only with {@code ovnj.southbound.remotes}, its meters (tagged
     * {@code database=OVN_Southbound}) and, with Actuator, its health component
     * {@code ovnjSouthbound}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "ovnj.southbound", name = "remotes")
    static class Southbound {
        @Bean(name = "ovnjSouthbound", destroyMethod = "close")
        @ConditionalOnMissingBean(name = "ovnjSouthbound")
        OvsdbClient ovnjSouthbound(OvnjProperties properties) {
            OvsdbClient client = client(properties.getSouthbound(), "OVN_Southbound")
                    .monitor(LoadBalancerEngine.southboundMonitorRequest()).build();
            client.start();
            return client;
        }

        @Bean
        @ConditionalOnMissingBean(name = "ovnjSouthboundClientMetrics")
        OvsdbClientMetrics ovnjSouthboundClientMetrics(@Qualifier("ovnjSouthbound") OvsdbClient southbound) {
            return new OvsdbClientMetrics(southbound);
        }
    }

    /** The health indicator, only with Actuator on the classpath. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    static class Health {
        @Bean
        @ConditionalOnMissingBean
        OvnjHealthIndicator ovnjHealthIndicator(OvnjProperties properties,
                @Qualifier("ovnjNorthbound") OvsdbClient northbound,
                ObjectProvider<LoadBalancerEngine> engine) {
            return new OvnjHealthIndicator(northbound, engine.getIfAvailable(), properties.getEngine().getOwner());
        }

        @Bean
        @ConditionalOnProperty(prefix = "ovnj.southbound", name = "remotes")
        @ConditionalOnMissingBean(name = "ovnjSouthboundHealthIndicator")
        OvnjSouthboundHealthIndicator ovnjSouthboundHealthIndicator(@Qualifier("ovnjSouthbound") OvsdbClient southbound) {
            return new OvnjSouthboundHealthIndicator(southbound);
        }
    }

    /** A client of {@code database}; the properties were validated when bound ({@link OvnjProperties#validate}). */
    static OvsdbClient.Builder client(OvnjProperties.Database db, String database) {
        OvsdbClient.Builder b = OvsdbClient.builder().database(database).remotes(db.getRemotes());
        if (db.getPrivateKey() != null) {
            b.tls(new TlsConfig(db.getPrivateKey(), db.getCertificate(), db.getCaCert()));
        }
        Optional.ofNullable(db.getLeaderOnly()).ifPresent(b::leaderOnly);
        Optional.ofNullable(db.getProbeInterval()).ifPresent(b::probeInterval);
        Optional.ofNullable(db.getConnectTimeout()).ifPresent(b::connectTimeout);
        Optional.ofNullable(db.getRequestTimeout()).ifPresent(b::requestTimeout);
        Optional.ofNullable(db.getCacheAudit()).ifPresent(b::cacheAudit);
        OvnjProperties.Backoff backoff = db.getReconnectBackoff();
        if (backoff.getMin() != null || backoff.getMax() != null) {
            b.backoff(Optional.ofNullable(backoff.getMin()).orElse(OvnjProperties.DEFAULT_MIN_BACKOFF),
                    Optional.ofNullable(backoff.getMax()).orElse(OvnjProperties.DEFAULT_MAX_BACKOFF));
        }
        return b;
    }
}
