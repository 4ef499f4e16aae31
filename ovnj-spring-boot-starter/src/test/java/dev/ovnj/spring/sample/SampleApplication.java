package dev.ovnj.spring.sample;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.UpsertOption;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The sample: an application that only injects the auto-configured engine and declares its load
 * balancer at start, configured by application properties ({@code ovnj.*} and {@code sample.*}).
 */
@SpringBootApplication
public class SampleApplication {
    private static final Logger LOG = LoggerFactory.getLogger(SampleApplication.class);

    /**
     * Declares {@code web} (owner {@code ovnj.engine.owner}) once the application has started,
     * without waiting for the database: the engine keeps the declaration (KEEP_DECLARED, even when the
     * future fails) and writes it as soon as
     * the database is reachable (now, or after an outage at boot), so the application starts
     * whether OVN is up or not, and the outcome is logged when it is known.
     */
    @Bean
    ApplicationRunner declare(LoadBalancerEngine engine, @Value("${ovnj.engine.owner}") String owner,
                              @Value("${sample.router}") String router, @Value("${sample.vip}") String vip) {
        return args -> engine.upsert(owner, LoadBalancerSpec.builder("web").tcp(vip, "10.1.0.10:8080").routers(router).build(),
                        UpsertOption.KEEP_DECLARED)
                .whenComplete((result, error) -> {
                    if (error != null) {
                        // E.g. SpecTimeoutException while the database is down: the engine still writes it once it is back.
                        LOG.warn("load balancer web not applied yet: {}", error.getMessage());
                    } else {
                        LOG.info("load balancer web: {}", result.statuses().get("web").state());
                    }
                });
    }

    /** What Spring Boot's Actuator metrics auto-configuration does: every MeterBinder bound to the registry. */
    @Bean
    MeterRegistry meterRegistry(List<MeterBinder> binders) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        binders.forEach(b -> b.bindTo(registry));
        return registry;
    }
}
