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
 * binders (bound by Spring Boot's metrics auto-configuration to every registry), and with
 * Actuator an {@link OvnjHealthIndicator}. Each bean backs off when the application defines its own.
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
        LoadBalancerEngine.Builder b = LoadBalancerEngine.builder(northbound)
                .requestTimeout(properties.getEngine().getRequestTimeout());
        Optional.ofNullable(properties.getEngine().getLock()).filter(l -> !l.isBlank()).ifPresent(b::lock);
        OvsdbClient sb = southbound.getIfAvailable();
        if (sb != null) {
            b.southbound(sb);
        }
        return b.build().start();
    }

    /**
     * The client's meters.
     *
     * @param northbound the Northbound client
     * @return its binder
     */
    @Bean
    @ConditionalOnMissingBean
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

    /** The Southbound client, only with {@code ovnj.southbound.remotes}. */
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
    }

    /** A client of {@code database}; the properties were validated when bound ({@link OvnjProperties#validate}). */
    static OvsdbClient.Builder client(OvnjProperties.Database db, String database) {
        OvsdbClient.Builder b = OvsdbClient.builder().database(database).remotes(db.getRemotes());
        if (db.getPrivateKey() != null) {
            b.tls(new TlsConfig(db.getPrivateKey(), db.getCertificate(), db.getCaCert()));
        }
        return b;
    }
}
