/** A tool of the registry's MCP endpoint: the read route it answers for, by method and URL pattern. */
export interface RegistryTool {
  name: string;
  method: 'GET' | 'POST';
  url: string;
}

/**
 * The read API over MCP, one tool per route. Each answers what its route answers: arguments
 * become the route's path parameters and query string (GET) or its JSON body (POST), and its
 * input schema, description and checks are the route's own.
 */
export const registryTools: readonly RegistryTool[] = [
  { name: 'resolve_brand', method: 'GET', url: '/api/brands/resolve' },
  { name: 'resolve_brands', method: 'POST', url: '/api/brands/resolve/bulk' },
  { name: 'list_brands', method: 'GET', url: '/api/brands/registry' },
  { name: 'find_brands', method: 'GET', url: '/api/brands/find' },
  { name: 'brand_history', method: 'GET', url: '/api/brands/history' },
  { name: 'resolve_property', method: 'GET', url: '/api/properties/resolve' },
  { name: 'resolve_properties', method: 'POST', url: '/api/properties/resolve/bulk' },
  { name: 'list_properties', method: 'GET', url: '/api/properties/registry' },
  { name: 'property_history', method: 'GET', url: '/api/properties/history' },
  { name: 'resolve_policy', method: 'GET', url: '/api/policies/resolve' },
  { name: 'resolve_policies', method: 'POST', url: '/api/policies/resolve/bulk' },
  { name: 'list_policies', method: 'GET', url: '/api/policies/registry' },
  { name: 'policy_history', method: 'GET', url: '/api/policies/history' },
  { name: 'search', method: 'GET', url: '/api/search' },
  { name: 'list_agents', method: 'GET', url: '/api/registry/agents' },
  { name: 'get_agent_compliance', method: 'GET', url: '/api/registry/agents/:url/compliance' },
  { name: 'search_agents', method: 'GET', url: '/api/registry/agents/search' },
  { name: 'get_operator', method: 'GET', url: '/api/registry/operator' },
  { name: 'get_publisher', method: 'GET', url: '/api/registry/publisher' },
  { name: 'list_publishers', method: 'GET', url: '/api/registry/publishers' },
  { name: 'get_stats', method: 'GET', url: '/api/registry/stats' },
  { name: 'lookup_domain', method: 'GET', url: '/api/registry/lookup/domain/:domain' },
  { name: 'lookup_property', method: 'GET', url: '/api/registry/lookup/property' },
  { name: 'lookup_agent_domains', method: 'GET', url: '/api/registry/lookup/agent/:agentUrl/domains' },
  { name: 'lookup_manifest_refs', method: 'GET', url: '/api/manifest-refs/lookup' },
  { name: 'check_property_authorization', method: 'GET', url: '/api/registry/validate/property-authorization' },
  { name: 'check_property_authorizations', method: 'POST', url: '/api/registry/validate/property-authorization' },
  { name: 'validate_product_authorization', method: 'POST', url: '/api/registry/validate/product-authorization' },
  { name: 'expand_product_identifiers', method: 'POST', url: '/api/registry/expand/product-identifiers' },
  { name: 'get_feed', method: 'GET', url: '/api/registry/feed' },
];
