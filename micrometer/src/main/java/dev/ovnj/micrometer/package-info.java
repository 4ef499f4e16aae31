/**
 * Micrometer bindings for ovnj: {@link dev.ovnj.micrometer.OvsdbClientMetrics} for an
 * {@code OvsdbClient} and {@link dev.ovnj.micrometer.LoadBalancerEngineMetrics} for a
 * {@code LoadBalancerEngine}. Meter names are dotted lowercase under {@code ovnj.client.} and
 * {@code ovnj.engine.}, so each registry renders them its own way (Prometheus:
 * {@code ovnj_engine_transactions_total}, {@code ovnj_engine_repair_seconds_count}, ...).
 */
package dev.ovnj.micrometer;
