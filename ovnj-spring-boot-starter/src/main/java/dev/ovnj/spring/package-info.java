/**
 * Spring Boot auto-configuration for ovnj: {@link dev.ovnj.spring.OvnjAutoConfiguration} makes an
 * {@code OvsdbClient} and a {@code LoadBalancerEngine} from the {@code ovnj.*} properties
 * ({@link dev.ovnj.spring.OvnjProperties}), binds their meters and, with Actuator, reports their
 * health ({@link dev.ovnj.spring.OvnjHealthIndicator}).
 */
package dev.ovnj.spring;
