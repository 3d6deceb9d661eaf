// Package api holds the HTTPS binding's server interface and client, generated from spec/openapi.yaml by
// oapi-codegen. The canonical objects are aliases of package aqp's types, so there is one model per object.
package api
