package dev.ovnj.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Binds the {@code ovnj.*} properties as soon as the application's configuration is read,
 * refusing unknown ones and validating the values ({@link OvnjProperties#validate}); a failure
 * stops the start with Spring Boot's failure analysis naming the property. Early, and whatever
 * else is configured: {@link OvnjAutoConfiguration} is conditional on
 * {@code ovnj.northbound.remotes}, so a misspelt {@code ovnj.northbound.remote} used to leave the
 * application without ovnj and without a word (or with an unrelated "no bean of type
 * LoadBalancerEngine").
 */
public class OvnjPropertiesCheck implements EnvironmentPostProcessor, Ordered {

    /** Creates the post-processor (Spring Boot instantiates it from {@code META-INF/spring.factories}). */
    public OvnjPropertiesCheck() {
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        OvnjProperties target = new OvnjProperties();
        BindHandler handler = new ValidationBindHandler(new NoUnboundElementsBindHandler(BindHandler.DEFAULT), target);
        Binder.get(environment).bind("ovnj", Bindable.ofInstance(target), handler);
    }

    /**
     * Last: after the application's configuration files are read.
     *
     * @return {@link Ordered#LOWEST_PRECEDENCE}
     */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
