package dev.ovnj.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Binds the {@code ovnj.*} properties as soon as the application's configuration is read,
 * refusing unknown ones and validating the values ({@link OvnjProperties#validate}); a failure
 * stops the start with {@link OvnjPropertiesFailureAnalyzer}'s analysis naming the property.
 * Early, and whatever else is configured: {@link OvnjAutoConfiguration} is conditional on
 * {@code ovnj.northbound.remotes}, so a misspelt {@code ovnj.northbound.remote} used to leave
 * the application without ovnj and without a word (or with an unrelated "no bean of type
 * LoadBalancerEngine").
 */
public class OvnjPropertiesCheck implements EnvironmentPostProcessor, Ordered {

    /** Creates the post-processor (Spring Boot instantiates it from {@code META-INF/spring.factories}). */
    public OvnjPropertiesCheck() {
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        OvnjProperties target = new OvnjProperties();
        BindHandler handler = new ValidationBindHandler(
                new NoUnboundElementsBindHandler(BindHandler.DEFAULT, OvnjPropertiesCheck::refusesUnknownKeys), target);
        Binder.get(environment).bind("ovnj", Bindable.ofInstance(target), handler);
    }

    /**
     * Whether an unknown {@code ovnj.*} key of this source stops the start. Not for the process's
     * environment: its {@code OVNJ_*} variables are shared with the {@code ovnj} command
     * ({@code OVNJ_VERBOSE}, {@code OVNJ_DB}) and with test tools ({@code OVNJ_OVSDB_IMAGE}), so one
     * of them must not stop an application; they still bind when they name a property.
     */
    private static boolean refusesUnknownKeys(ConfigurationPropertySource source) {
        return !(source.getUnderlyingSource() instanceof PropertySource<?> p
                && StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(p.getName()));
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
