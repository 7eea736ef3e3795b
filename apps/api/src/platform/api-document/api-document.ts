import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The served OpenAPI document, once generated at start, for the code that derives from it (the MCP
 * tools take their names, descriptions and input schemas from it, so nothing is written twice).
 */
@Injectable()
export class ApiDocument {
  private document: OpenAPIObject | undefined;

  set(document: OpenAPIObject): void {
    this.document = document;
  }

  get(): OpenAPIObject {
    if (!this.document) throw new Error('The OpenAPI document is generated when the app starts; it is not there yet');
    return this.document;
  }
}
