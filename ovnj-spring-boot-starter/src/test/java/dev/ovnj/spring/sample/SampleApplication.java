package dev.ovnj.spring.sample;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

    /** Declares {@code web} (owner {@code ovnj.engine.owner}) once the application has started. */
    @Bean
    ApplicationRunner declare(LoadBalancerEngine engine, @Value("${ovnj.engine.owner}") String owner,
                              @Value("${sample.router}") String router, @Value("${sample.vip}") String vip) {
        return args -> engine.upsert(owner, LoadBalancerSpec.builder("web").tcp(vip, "10.1.0.10:8080").routers(router).build())
                .get(30, TimeUnit.SECONDS);
    }

    /** What Spring Boot's Actuator metrics auto-configuration does: every MeterBinder bound to the registry. */
    @Bean
    MeterRegistry meterRegistry(List<MeterBinder> binders) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        binders.forEach(b -> b.bindTo(registry));
        return registry;
    }
}
