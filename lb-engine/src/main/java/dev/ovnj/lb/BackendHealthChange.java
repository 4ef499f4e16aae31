package dev.ovnj.lb;

/**
 * One backend's health changed (see {@link EngineListener#onBackendHealth}).
 *
 * @param owner the owner
 * @param spec the spec's name
 * @param backend the backend, keyed as in {@link SpecStatus#backendHealth()}: {@code IP:PORT} or
 *     {@code [IPv6]:PORT} as OVN writes it for a TCP VIP's backend, with {@code /udp} or {@code /sctp}
 *     appended for the other protocols (see {@link BackendHealthView#key})
 * @param before what it was
 * @param now what it is
 */
public record BackendHealthChange(String owner, String spec, String backend, BackendHealth before, BackendHealth now) {
}
