/** Exposing ovnj's metrics in Prometheus text format through Micrometer. */
package dev.ovnj.examples.metrics;
