package dev.ovnj.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * One monotonically increasing value of a counters snapshot ({@code ClientStats},
 * {@code EngineMetrics}) exposed as a Micrometer {@link FunctionCounter}: the registry reads the
 * snapshot when it publishes, so nothing is counted twice and nothing is kept here.
 *
 * @param name the meter name, dotted lowercase
 * @param description what it counts
 * @param value reads the count from a snapshot
 * @param tags tags that tell apart counters of the same name (e.g. {@code kind=full})
 * @param <S> the snapshot type
 */
record CounterDefinition<S>(String name, String description, ToDoubleFunction<S> value, Tags tags) {

    static <S> CounterDefinition<S> of(String name, String description, ToDoubleFunction<S> value, String... tags) {
        return new CounterDefinition<>(name, description, value, Tags.of(tags));
    }

    /**
     * Registers the counter with the binder's common tags added. The registry keeps only a weak
     * reference to {@code owner} (the client or engine the application holds), never to a lambda
     * made here, which nothing else would keep alive.
     */
    <T> void register(MeterRegistry registry, T owner, Function<T, S> snapshot, Iterable<Tag> common) {
        FunctionCounter.builder(name, owner, o -> value.applyAsDouble(snapshot.apply(o)))
                .description(description)
                .tags(tags.and(common))
                .register(registry);
    }
}
