// The MCP surface's filter lives with the other surfaces' filters, so errors raised before routing reach it too.
export { McpExceptionFilter } from '../../common/http/exception-filters';
