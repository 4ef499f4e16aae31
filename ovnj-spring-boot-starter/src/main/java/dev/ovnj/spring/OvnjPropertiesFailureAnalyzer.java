package dev.ovnj.spring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationErrors;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Explains a start that failed on an {@code ovnj.*} property: the description names each bad
 * property as it is written in application.yaml ({@code ovnj.engine.request-timeout}, not the
 * Java field {@code engine.requestTimeout}), with its value, where it was set and what is wrong;
 * the action says what the property accepts, or, for an unknown key, which property was probably
 * meant and which exist. Ahead of Spring Boot's own binding analyzers, which it replaces for
 * {@code ovnj.*} only.
 */
public class OvnjPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

    /** Every ovnj property, and what it accepts; {@link OvnjProperties} binds exactly these. */
    static final Map<String, String> PROPERTIES = properties();

    private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("ovnj");

    /** Creates the analyzer (Spring Boot instantiates it from {@code META-INF/spring.factories}). */
    public OvnjPropertiesFailureAnalyzer() {
    }

    private static Map<String, String> properties() {
        String remotes = "comma-separated OVSDB remotes tcp:IP:PORT, ssl:IP:PORT or unix:PATH, with the port"
                + " (OVN's Northbound listens on 6641, its Southbound on 6642)";
        String pem = "the path of a PEM file; ssl: remotes need all three of private-key, certificate and ca-cert";
        Map<String, String> p = new HashMap<>();
        for (String db : List.of("northbound", "southbound")) {
            p.put("ovnj." + db + ".remotes", remotes);
            p.put("ovnj." + db + ".private-key", pem);
            p.put("ovnj." + db + ".certificate", pem);
            p.put("ovnj." + db + ".ca-cert", pem);
            p.put("ovnj." + db + ".leader-only", "true (only a cluster's leader, the default) or false (any member or relay)");
            p.put("ovnj." + db + ".probe-interval", "a duration, 0 to disable the inactivity probe (default 5s)");
            p.put("ovnj." + db + ".connect-timeout", "a positive duration (default 5s)");
            p.put("ovnj." + db + ".request-timeout", "a positive duration (default 30s)");
            p.put("ovnj." + db + ".cache-audit", "a duration of at least 1ms, 0 to disable the cache audit (default 5m)");
            p.put("ovnj." + db + ".reconnect-backoff.min", "a duration, 0 or more and not above reconnect-backoff.max"
                    + " (default 100ms; max's default is 8s)");
            p.put("ovnj." + db + ".reconnect-backoff.max", "a duration not below reconnect-backoff.min (default 8s; min's"
                    + " default is 100ms)");
        }
        p.put("ovnj.engine.enabled", "true or false");
        p.put("ovnj.engine.owner", "any owner name (the health indicator counts that owner's load balancers)");
        p.put("ovnj.engine.lock", "an OVSDB lock name: a letter or _, then letters, digits or _");
        p.put("ovnj.engine.request-timeout", "a positive duration, such as 30s, 500ms or PT30S");
        p.put("ovnj.engine.batch-window", "a duration, 0 or more (default 0: a change is written at once)");
        p.put("ovnj.engine.eip-policy", "warn (default) or reject");
        p.put("ovnj.engine.owner-locks", "true (default) or false");
        p.put("ovnj.engine.max-ops-per-transaction", "a whole number, at least 1 (default 1000)");
        p.put("ovnj.engine.max-pending-requests", "a whole number, at least 1 (default 10000)");
        p.put("ovnj.engine.stall-timeout", "a positive duration (default 10s)");
        p.put("ovnj.engine.retry-backoff.min", "a duration, 0 or more and not above retry-backoff.max (default 20ms;"
                + " max's default is 2s)");
        p.put("ovnj.engine.retry-backoff.max", "a duration not below retry-backoff.min (default 2s; min's default is 20ms)");
        p.put("ovnj.engine.deletion-budget.share", "a fraction of the owner's rows from 0 to 1 (default 0.5)");
        p.put("ovnj.engine.deletion-budget.min-rows", "a whole number, 0 or more (default 5)");
        p.put("ovnj.engine.deletion-budget.unlimited", "true (no budget, then without share and min-rows) or false (default)");
        return Map.copyOf(p);
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        if (!PREFIX.isAncestorOf(cause.getName()) && !PREFIX.equals(cause.getName())) {
            return null;
        }
        if (cause.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
            return unknownKeys(unbound, cause);
        }
        if (cause.getCause() instanceof BindValidationException invalid) {
            return invalidValues(invalid.getValidationErrors(), cause);
        }
        // A value that does not convert (ovnj.engine.request-timeout=abc): the exception names the property.
        String name = cause.getName().toString();
        ConfigurationProperty property = cause.getProperty();
        String what = property == null ? name : name + " = '" + property.getValue() + "'" + from(property.getOrigin());
        return new FailureAnalysis(what + " is not valid: " + rootMessage(cause), action(List.of(name)), cause);
    }

    private static FailureAnalysis unknownKeys(UnboundConfigurationPropertiesException unbound, BindException cause) {
        List<String> names = new ArrayList<>();
        StringBuilder description = new StringBuilder();
        unbound.getUnboundProperties().stream().sorted(Comparator.comparing(p -> p.getName().toString())).forEach(p -> {
            String name = p.getName().toString();
            names.add(name);
            description.append(description.isEmpty() ? "" : "\n").append(name).append(from(p.getOrigin()))
                    .append(" is not an ovnj property.");
        });
        StringBuilder action = new StringBuilder();
        for (String name : names) {
            closest(name).ifPresent(c -> action.append("Did you mean ").append(c).append(" instead of ").append(name).append("? "));
        }
        action.append("The ovnj properties are: ").append(String.join(", ", PROPERTIES.keySet().stream().sorted().toList())).append('.');
        return new FailureAnalysis(description.toString(), action.toString(), cause);
    }

    private static FailureAnalysis invalidValues(ValidationErrors errors, BindException cause) {
        List<String> names = new ArrayList<>();
        StringBuilder description = new StringBuilder();
        for (ObjectError error : errors) {
            String name = error instanceof FieldError field ? errors.getName() + "." + dashed(field.getField()) : errors.getName().toString();
            names.add(name);
            // The value as configured (0s), not as converted (PT0S).
            ConfigurationProperty bound = errors.getBoundProperties().stream().filter(p -> p.getName().toString().equals(name))
                    .findFirst().orElse(null);
            Origin origin = bound == null ? null : bound.getOrigin();
            Object value = bound != null ? bound.getValue() : error instanceof FieldError field ? field.getRejectedValue() : null;
            description.append(description.isEmpty() ? "" : "\n").append(name)
                    .append(value == null ? " (not set)" : " = '" + value + "'").append(from(origin)).append(" is not valid: ")
                    .append(error.getDefaultMessage());
        }
        return new FailureAnalysis(description.toString(), action(names), cause);
    }

    /** What each property accepts, one line each. */
    private static String action(List<String> names) {
        return names.stream().distinct().map(n -> "Set " + n + " to " + PROPERTIES.getOrDefault(n, "a valid value") + ".")
                .collect(Collectors.joining("\n"));
    }

    /** {@code engine.requestTimeout} as it is written in configuration: {@code engine.request-timeout}. */
    private static String dashed(String field) {
        return Arrays.stream(field.split("\\.")).map(DataObjectPropertyName::toDashedForm).collect(Collectors.joining("."));
    }

    private static String from(Origin origin) {
        return origin == null ? "" : " (from " + origin + ")";
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    /** The known property nearest to a misspelt one, within a few edits (a dropped letter, a typo). */
    static Optional<String> closest(String name) {
        return PROPERTIES.keySet().stream().filter(k -> distance(k, name) <= 3)
                .min(Comparator.comparingInt((String k) -> distance(k, name)).thenComparing(k -> k));
    }

    /** Levenshtein distance. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /**
     * First: for {@code ovnj.*} this analysis replaces Spring Boot's, which names Java fields.
     *
     * @return {@link Ordered#HIGHEST_PRECEDENCE}
     */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
